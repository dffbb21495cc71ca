/* budget.c: durations and sizes as GNU timeout(1) and head(1) read them,
 * for --max-time and --max-bytes. */
#include <string.h>

#include "budget.h"

bool fh_parse_duration(const char *s, double *seconds)
{
	double v = 0, scale = 1;
	bool digits = false;
	const char *p = s;

	/* Digits, an optional fraction: no sign, no exponent, no locale. */
	for (; *p >= '0' && *p <= '9'; p++, digits = true)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true)
			v += (*p - '0') * (scale /= 10);
	if (!digits)
		return false;
	switch (*p) {
	case '\0': break;
	case 's': p++; break;
	case 'm': v *= 60; p++; break;
	case 'h': v *= 3600; p++; break;
	case 'd': v *= 86400; p++; break;
	default: return false;
	}
	if (*p || v > 100 * 365.25 * 86400)
		return false;
	*seconds = v;
	return true;
}

/* Multiplies *V by BASE, POWER times; false on overflow. */
static bool scale_by(uint64_t *v, uint64_t base, int power)
{
	while (power-- > 0) {
		if (*v > UINT64_MAX / base)
			return false;
		*v *= base;
	}
	return true;
}

bool fh_parse_size(const char *s, uint64_t *bytes)
{
	static const char powers[] = "KMGTPE";
	uint64_t v = 0;
	const char *p = s;

	/* As strtoumax: blanks and a '+' may come first. */
	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '+')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!*p) {
		*bytes = v;
		return true;
	}
	if (p[0] == 'b' && !p[1]) {
		if (!scale_by(&v, 2, 9))
			return false;
		*bytes = v;
		return true;
	}
	/* K and M may be lower case too; G and above may not. */
	char unit = (char)(*p == 'k' || *p == 'm' ? *p - 'a' + 'A' : *p);
	const char *at = unit ? strchr(powers, unit) : NULL;

	if (!at)
		return false;
	int power = (int)(at - powers) + 1;
	uint64_t base = 1024;

	if (strcmp(p + 1, "B") == 0)
		base = 1000;
	else if (p[1] && strcmp(p + 1, "iB") != 0)
		return false;
	if (!scale_by(&v, base, power))
		return false;
	*bytes = v;
	return true;
}

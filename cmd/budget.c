/* budget.c: durations and sizes as GNU timeout(1) and head(1) read them,
 * for --max-time and --max-bytes. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"

/* strtod as the C locale reads S, whatever LC_NUMERIC says: S with its
 * first '.' turned into the locale's radix, read by strtod; *END is
 * where the reading stopped in S.  Portable where strtod_l is not. */
static double c_strtod(const char *s, const char **end)
{
	const char *radix = localeconv()->decimal_point;
	const char *dot = strchr(s, '.');
	char *e;

	if (!dot || !radix || strcmp(radix, ".") == 0) {
		double v = strtod(s, &e);

		*end = e;
		return v;
	}
	size_t at = (size_t)(dot - s), rl = strlen(radix);
	char *copy = malloc(strlen(s) + rl);

	if (!copy) {
		*end = s;
		return 0;
	}
	memcpy(copy, s, at);
	memcpy(copy + at, radix, rl);
	strcpy(copy + at + rl, dot + 1);
	double v = strtod(copy, &e);
	size_t used = (size_t)(e - copy);

	*end = s + (used > at ? used - rl + 1 : used);
	free(copy);
	return v;
}

/* As gnulib's cl_strtod, which timeout reads with: the locale's number or
 * the C locale's, whichever is longer ("1,5" and "1.5" in de_DE). */
static double cl_strtod(const char *s, const char **end)
{
	char *e;
	double v = strtod(s, &e);

	*end = e;
	if (*e) {
		const char *c_end;
		double c = c_strtod(s, &c_end);

		if (c_end > e) {
			*end = c_end;
			return c;
		}
	}
	return v;
}

bool fh_parse_duration(const char *s, double *seconds)
{
	const char *end;
	double v = cl_strtod(s, &end);

	/* timeout(1): a number strtod takes (blanks, a sign, exponents,
	 * hex, inf; one too large is infinite), not below 0, then at most
	 * one of s, m, h, d. */
	if (end == s || !(v >= 0) || (*end && end[1]))
		return false;
	switch (*end) {
	case '\0': case 's': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return false;
	}
	*seconds = v == 0 ? 0 : v; /* -0 is 0, and prints so */
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

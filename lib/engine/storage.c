/* storage.c: the kind of device that holds a file, read from sysfs (see
 * storage.h).  Every path is taken relative to a sysfs root given by the
 * caller, so the unit test runs it over fake trees of every shape. */
#include <dirent.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage.h"

/* Device-mapper and md volumes may stack; deeper is not worth following. */
#define FH_STORAGE_MAX_DEPTH 4

/* The first line of the file PATH, without its newline; false if none. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* DIR/NAME into OUT (SIZE bytes); false if it does not fit. */
static bool join(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < size;
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX];

	return join(p, sizeof p, dir, name) && access(p, F_OK) == 0;
}

/* Disks whose rotational flag is the hypervisor's or a driver's default,
 * not a fact about the medium: by name (vda, xvda, nbd0, rbd0, zram0,
 * loop0) or by where they sit (under a virtio device, or virtual). */
static bool untrusted(const char *path, const char *name)
{
	static const char *const prefix[] = { "vd", "xvd", "nbd", "rbd",
					      "zram", "loop", "ram" };

	for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
		if (strncmp(name, prefix[i], strlen(prefix[i])) == 0)
			return true;
	return strstr(path, "/virtio") || strstr(path, "/devices/virtual/");
}

static enum fh_storage kind_of(const char *sysfs, unsigned maj, unsigned min,
			       int depth, char *why, size_t whylen);

/* A volume over other block devices: rotating only if all of them are. */
static enum fh_storage kind_of_slaves(const char *sysfs, const char *disk,
				      const char *name, int depth, char *why,
				      size_t whylen)
{
	char dir[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int seen = 0, rotating = 0, solid = 0;

	if (!join(dir, sizeof dir, disk, "slaves") || !(d = opendir(dir)))
		return FH_STORAGE_UNKNOWN;
	while ((de = readdir(d))) {
		char slave[PATH_MAX], p[PATH_MAX], dev[32];
		unsigned a, b;

		if (de->d_name[0] == '.')
			continue;
		seen++;
		if (!join(slave, sizeof slave, dir, de->d_name) ||
		    !join(p, sizeof p, slave, "dev") ||
		    !read_line(p, dev, sizeof dev) || sscanf(dev, "%u:%u", &a, &b) != 2)
			continue;
		switch (kind_of(sysfs, a, b, depth + 1, why, whylen)) {
		case FH_STORAGE_ROTATING: rotating++; break;
		case FH_STORAGE_SOLID: solid++; break;
		default: break;
		}
	}
	closedir(d);
	if (seen && rotating == seen) {
		snprintf(why, whylen, "%s: every device under it rotates", name);
		return FH_STORAGE_ROTATING;
	}
	if (seen && solid == seen) {
		snprintf(why, whylen, "%s: no device under it rotates", name);
		return FH_STORAGE_SOLID;
	}
	snprintf(why, whylen, "%s: devices of mixed or unknown kinds", name);
	return FH_STORAGE_UNKNOWN;
}

static enum fh_storage kind_of(const char *sysfs, unsigned maj, unsigned min,
			       int depth, char *why, size_t whylen)
{
	char link[PATH_MAX], disk[PATH_MAX], p[PATH_MAX], flag[16];

	if (depth > FH_STORAGE_MAX_DEPTH) {
		snprintf(why, whylen, "volumes stacked too deep");
		return FH_STORAGE_UNKNOWN;
	}
	int n = snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysfs, maj, min);

	if (n < 0 || (size_t)n >= sizeof link || !realpath(link, disk)) {
		snprintf(why, whylen, "device %u:%u not in sysfs", maj, min);
		return FH_STORAGE_UNKNOWN;
	}
	/* A partition's queue is its disk's, one directory up. */
	if (exists(disk, "partition")) {
		char *slash = strrchr(disk, '/');

		if (slash)
			*slash = '\0';
	}
	const char *name = strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk;

	if (exists(disk, "slaves") && (strncmp(name, "dm-", 3) == 0 ||
				       strncmp(name, "md", 2) == 0))
		return kind_of_slaves(sysfs, disk, name, depth, why, whylen);
	if (!join(p, sizeof p, disk, "queue/rotational") ||
	    !read_line(p, flag, sizeof flag)) {
		snprintf(why, whylen, "%s: no queue/rotational", name);
		return FH_STORAGE_UNKNOWN;
	}
	if (strcmp(flag, "0") == 0) {
		snprintf(why, whylen, "%s: rotational=0", name);
		return FH_STORAGE_SOLID;
	}
	if (strcmp(flag, "1") != 0) {
		snprintf(why, whylen, "%s: rotational=%s", name, flag);
		return FH_STORAGE_UNKNOWN;
	}
	if (untrusted(disk, name)) {
		snprintf(why, whylen, "%s: rotational=1 not trusted on a virtual disk",
			 name);
		return FH_STORAGE_UNKNOWN;
	}
	snprintf(why, whylen, "%s: rotational=1", name);
	return FH_STORAGE_ROTATING;
}

enum fh_storage fh_storage_of(const char *sysfs, unsigned maj, unsigned min,
			      char *why, size_t whylen)
{
	if (whylen)
		why[0] = '\0';
	return kind_of(sysfs, maj, min, 0, why, whylen);
}

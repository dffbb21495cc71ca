/* test_storage.c: the storage kind behind a device, over fake sysfs trees
 * made here in a temporary directory: a SATA disk and its partition (it
 * rotates), virtio and Xen disks that claim to rotate (not trusted), an
 * NVMe disk (solid), device-mapper and md volumes over disks of each kind,
 * and a device sysfs does not know. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage.h"

static char root[64];
static int fails;

/* PATH_MAX-sized formatting that fails the test instead of truncating. */
#define FMT(buf, ...)                                                     \
	do {                                                              \
		int n_ = snprintf(buf, sizeof buf, __VA_ARGS__);          \
		if (n_ < 0 || (size_t)n_ >= sizeof buf) {                 \
			printf("FAIL path too long\n");                   \
			exit(1);                                          \
		}                                                         \
	} while (0)

static void mkdirs(const char *rel)
{
	char p[1024];

	FMT(p, "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[1024];
	FILE *f;

	FMT(p, "%s/%s", root, rel);
	if (!(f = fopen(p, "w")) || fputs(text, f) < 0 || fclose(f) != 0) {
		printf("FAIL cannot write %s\n", p);
		exit(1);
	}
}

static void link_to(const char *rel, const char *target)
{
	char p[1024];

	FMT(p, "%s/%s", root, rel);
	if (symlink(target, p) != 0) {
		printf("FAIL cannot link %s: %s\n", p, strerror(errno));
		exit(1);
	}
}

/* A disk at DIR (under devices/) numbered DEV, with a rotational flag
 * (NULL: none), listed in dev/block. */
static void disk(const char *dir, const char *dev, const char *rotational)
{
	char p[1024], t[1024];

	mkdirs(dir);
	FMT(p, "%s/dev", dir);
	FMT(t, "%s\n", dev);
	put(p, t);
	if (rotational) {
		FMT(p, "%s/queue", dir);
		mkdirs(p);
		FMT(p, "%s/queue/rotational", dir);
		FMT(t, "%s\n", rotational);
		put(p, t);
	}
	FMT(p, "dev/block/%s", dev);
	FMT(t, "../../%s", dir);
	link_to(p, t);
}

static void partition(const char *dir, const char *dev)
{
	char p[1024];

	disk(dir, dev, NULL);
	FMT(p, "%s/partition", dir);
	put(p, "1\n");
}

/* A volume at DIR over the devices SLAVES (paths under devices/). */
static void volume(const char *dir, const char *dev, const char *const *slaves)
{
	char p[1024], t[1024];

	disk(dir, dev, "0");
	FMT(p, "%s/slaves", dir);
	mkdirs(p);
	for (; *slaves; slaves++) {
		const char *name = strrchr(*slaves, '/') + 1;

		FMT(p, "%s/slaves/%s", dir, name);
		FMT(t, "%s/%s", root, *slaves);
		link_to(p, t);
	}
}

static void expect(unsigned maj, unsigned min, enum fh_storage want,
		   const char *what)
{
	char why[160];
	enum fh_storage got = fh_storage_of(root, maj, min, why, sizeof why);
	static const char *const name[] = { "unknown", "solid", "rotating" };

	printf("%-44s %u:%u %-8s (%s)\n", what, maj, min, name[got], why);
	if (got != want) {
		printf("FAIL %s: %s, want %s\n", what, name[got], name[want]);
		fails++;
	}
}

int main(void)
{
	snprintf(root, sizeof root, "/tmp/fh-sysfs.XXXXXX");
	if (!mkdtemp(root))
		return 1;
	mkdirs("dev/block");
	const char *sda = "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda";
	const char *sdb = "devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sdb";
	const char *nvme = "devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1";
	char sda1[256];

	disk(sda, "8:0", "1");
	FMT(sda1, "%s/sda1", sda);
	partition(sda1, "8:1");
	disk(sdb, "8:16", "1");
	disk(nvme, "259:0", "0");
	disk("devices/pci0000:00/0000:00:02.0/virtio1/block/vda", "254:0", "1");
	disk("devices/vbd-51712/block/xvda", "202:0", "1");
	disk("devices/platform/host2/block/sdz", "65:144", NULL);
	disk("devices/platform/host3/block/sdy", "65:128", "2");
	volume("devices/virtual/block/dm-0", "253:0", (const char *[]){ sda1, NULL });
	volume("devices/virtual/block/dm-1", "253:1", (const char *[]){ nvme, NULL });
	volume("devices/virtual/block/dm-2", "253:2", (const char *[]){ sda, nvme, NULL });
	volume("devices/virtual/block/md0", "9:0", (const char *[]){ sda, sdb, NULL });

	expect(8, 0, FH_STORAGE_ROTATING, "SATA disk, rotational=1");
	expect(8, 1, FH_STORAGE_ROTATING, "its partition");
	expect(259, 0, FH_STORAGE_SOLID, "NVMe disk, rotational=0");
	expect(254, 0, FH_STORAGE_UNKNOWN, "virtio disk claiming to rotate");
	expect(202, 0, FH_STORAGE_UNKNOWN, "Xen disk claiming to rotate");
	expect(65, 144, FH_STORAGE_UNKNOWN, "disk without queue/rotational");
	expect(65, 128, FH_STORAGE_UNKNOWN, "disk with an odd rotational flag");
	expect(253, 0, FH_STORAGE_ROTATING, "dm volume over a rotating partition");
	expect(253, 1, FH_STORAGE_SOLID, "dm volume over NVMe");
	expect(253, 2, FH_STORAGE_UNKNOWN, "dm volume over both kinds");
	expect(9, 0, FH_STORAGE_ROTATING, "md array of two rotating disks");
	expect(1, 1, FH_STORAGE_UNKNOWN, "a device sysfs does not list");

	char cmd[128];

	FMT(cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("warning: could not remove %s\n", root);
	printf("storage: %d failed\n", fails);
	return fails ? 1 : 0;
}

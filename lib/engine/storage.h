/* storage.h: what kind of device holds a file, from sysfs, so that the
 * engine can read one file at a time, in order, from a spinning disk.
 * Internal to the engine. */
#ifndef FH_STORAGE_H
#define FH_STORAGE_H

#include <stddef.h>

enum fh_storage {
	FH_STORAGE_UNKNOWN,     /* no answer, or one not to be trusted */
	FH_STORAGE_SOLID,       /* no seek cost: SSD, NVMe, RAM */
	FH_STORAGE_ROTATING,    /* a spinning disk: parallel reads cost seeks */
};

/* The kind of the block device MAJ:MIN, as SYSFS (normally "/sys")
 * describes it: its queue/rotational, read through a partition to its disk
 * and through device-mapper and md volumes to the disks under them (all
 * must rotate).  A virtual disk's rotational flag says nothing (virtio-blk
 * reports 1 whatever backs it), so virtio, Xen, network and RAM-backed
 * devices give FH_STORAGE_UNKNOWN when they claim to rotate.  Writes a few
 * words on how it decided into WHY (WHYLEN bytes).  Thread-safe. */
enum fh_storage fh_storage_of(const char *sysfs, unsigned maj, unsigned min,
			      char *why, size_t whylen);

#endif

/* storage.h: what kind of device holds a file, from Linux's sysfs, so
 * that the engine can read one file at a time, in order, from a spinning
 * disk.  Part of the Linux OS layer (os_linux.c answers fh_os_storage
 * with it); the kinds are os.h's. */
#ifndef FH_STORAGE_H
#define FH_STORAGE_H

#include <stddef.h>

#include "os.h"

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

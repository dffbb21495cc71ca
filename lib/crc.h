/* crc.h: a CRC model as the Rocksoft parameters describe it (Ross
 * Williams, "A painless guide to CRC error detection algorithms", 1993;
 * the names of Greg Cook's catalogue of parametrised CRC algorithms), and
 * the register the CRC family's kernels run.  Internal to the library. */
#ifndef FH_CRC_H
#define FH_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fh_crc_model {
	const char *name;   /* the catalogue's: "CRC-32/ISCSI" */
	unsigned width;     /* 32 or 64 */
	uint64_t poly;      /* normal (MSB-first) form, without the top bit */
	uint64_t init;
	bool reflected;     /* refin and refout, which agree in every model here */
	uint64_t xorout;
	uint64_t check;     /* the CRC of the nine bytes "123456789" */
	/* POSIX cksum: the message's length follows it, least significant
	 * byte first, in as few bytes as hold it (POSIX.1-2017 cksum). */
	bool length_appended;
	/* Slice-by-8 tables of the portable kernel, filled once (crc.c). */
	uint64_t (*table)[256];
};

/* The models of the algorithm table (algo.c). */
extern const struct fh_crc_model fh_crc_cksum, fh_crc_32, fh_crc_32c,
	fh_crc_64nvme;
/* The sum family's models (sum.c): whether the sum is BSD's. */
extern const bool fh_sum_bsd_kind, fh_sum_sysv_kind;
/* The xxHash family's models (xxhash.c): XXH32, XXH64, XXH3, XXH128. */
extern const int fh_xxh_kinds[4];

/* The register: a reflected model's CRC in its low WIDTH bits, least
 * significant bit first as its bytes arrive; a normal model's in the
 * register's top WIDTH bits.  fh_crc_start gives the register before any
 * byte, fh_crc_value the CRC of a register (xorout applied). */
uint64_t fh_crc_start(const struct fh_crc_model *m);
uint64_t fh_crc_value(const struct fh_crc_model *m, uint64_t reg);
/* The register after a message whose register was REG and LEN bytes
 * more whose register from zero is TAIL: slices of one input hashed
 * apart, joined. */
uint64_t fh_crc_combine(const struct fh_crc_model *m, uint64_t reg, uint64_t tail,
			uint64_t len);
/* The portable kernel's function (fh_crc_update_fn), for the faster
 * kernels' short inputs and last bytes. */
uint64_t fh_crc_portable_update(const struct fh_crc_model *m, uint64_t reg,
				const uint8_t *p, size_t n);

#endif

/* parts.h: --part-size, S3's values of multipart uploads (parts.c). */
#ifndef FH_CMD_PARTS_H
#define FH_CMD_PARTS_H

#include <stdbool.h>

#include "cli.h"
#include "operands.h"

/* Writes a line per name of OPS: its value for uploads in parts of
 * C->part_size; returns true if every file was read. */
bool fh_parts_generate(const struct cli *c, struct operands *ops);
/* Checks the lists OPS names, whose values are those of uploads in parts
 * of C->part_size; returns true if every list passed. */
bool fh_parts_check(const struct cli *c, struct operands *ops);

#endif

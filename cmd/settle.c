/* settle.c: which of two algorithms a checksum line is, when its digest's
 * length is both's (SHA-2 and SHA-3 of 224, 256, 384 or 512 bits, without
 * -a or a tag): its file read once and hashed both ways.  -c (check.c)
 * and the lists of --audit and --update (auditlist.c) settle a list so. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settle.h"

size_t fh_shared_index(size_t outlen)
{
	return outlen == 28 ? 0 : outlen == 32 ? 1 : outlen == 48 ? 2 : 3;
}

int fh_hash_both(const char *name, const struct fh_algo *const algos[2],
		 uint8_t digests[2][FH_MAX_DIGEST], uint64_t *size)
{
	bool in = strcmp(name, "-") == 0;
	int fd = in ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	size_t cap = 1 << 18;
	uint8_t *buf = fd >= 0 ? malloc(cap) : NULL;
	fh_ctx ctx[2];
	int err = 0;

	if (fd < 0)
		return errno;
	if (!buf) {
		if (!in)
			close(fd);
		return ENOMEM;
	}
	fh_init(&ctx[0], algos[0]);
	fh_init(&ctx[1], algos[1]);
	*size = 0;
	for (;;) {
		ssize_t got = read(fd, buf, cap);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			break;
		}
		if (got == 0)
			break;
		fh_update(&ctx[0], buf, (size_t)got);
		fh_update(&ctx[1], buf, (size_t)got);
		*size += (uint64_t)got;
	}
	free(buf);
	if (!in)
		close(fd);
	if (!err) {
		fh_final(&ctx[0], digests[0], algos[0]->digest_bytes);
		fh_final(&ctx[1], digests[1], algos[1]->digest_bytes);
	}
	return err;
}


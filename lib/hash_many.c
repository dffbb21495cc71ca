/* hash_many.c: fh_hash_many, many messages in memory through the lanes of
 * a multi-buffer kernel.  The in-memory sibling of lanes.c, with no reads
 * and no waiting: each lane holds one message; all lanes advance together
 * by as many blocks as the shortest has left; a lane whose message runs
 * out of whole blocks goes on through its padding (built in a block of
 * its own, so the last blocks run in the lanes too) and then takes the
 * next message.  Messages are taken longest first, a window at a time, so
 * that the lanes drain on short messages at the end.  With few lanes
 * busy a narrower kernel of the family runs them, and a lone lane goes on
 * the single-stream kernel: the state layouts are the same.  A family
 * that compresses its last block its own way (BLAKE2b) runs in the lanes
 * only the blocks that more bytes follow, and finishes each message
 * through fh_update and fh_final from the lane's state.
 *
 * Everything lives on the caller's stack (about 20 KiB), so there is no
 * allocation to fail. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

/* Messages sorted by length at a time; 16 bytes each on the stack. */
#define FH_MANY_WINDOW 256

struct many_lane {
	size_t msg;             /* index of its message */
	const uint8_t *data;    /* the message; the padding once in PAD */
	size_t pos;             /* bytes of DATA absorbed */
	size_t blocks;          /* whole blocks of DATA left */
	bool padding;           /* DATA is PAD */
	uint8_t pad[FH_PAD_MAX];
};

struct many {
	const struct fh_algo *algo;
	const struct fh_kernel *single;
	const void *const *data;
	const size_t *len;
	uint8_t *out;
	size_t outlen;
	unsigned busy;          /* lanes 0..busy-1 hold messages */
	struct many_lane lane[FH_MAX_LANES];
	size_t state_bytes;     /* of one lane's state */
	size_t held;            /* bytes kept from the lanes (fh_held_bytes) */
	/* The lanes' states end to end, as the kernels take them. */
	uint64_t states[FH_MAX_LANES * 25];
};

struct order {
	size_t len, msg;
};

/* Longest first; equal lengths in message order, so runs repeat. */
static int longer_first(const void *x, const void *y)
{
	const struct order *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? 1 : -1;
	return (a->msg > b->msg) - (a->msg < b->msg);
}

/* Lane I's state. */
static void *state(struct many *m, unsigned i)
{
	return (uint8_t *)m->states + i * m->state_bytes;
}

/* Lane I's message ran out of whole blocks: its tail and padding become
 * the lane's data. */
static void start_padding(struct many *m, unsigned i)
{
	struct many_lane *ln = &m->lane[i];
	size_t tail = m->len[ln->msg] - ln->pos;

	if (tail)
		memcpy(ln->pad, ln->data + ln->pos, tail);
	ln->blocks = fh_pad(m->algo, ln->pad, tail, m->len[ln->msg]);
	ln->data = ln->pad;
	ln->pos = 0;
	ln->padding = true;
}

/* Starts message MSG in lane I, with the initial state. */
static void start(struct many *m, unsigned i, size_t msg, const fh_ctx *init)
{
	struct many_lane *ln = &m->lane[i];

	ln->msg = msg;
	ln->data = m->data[msg];
	ln->pos = 0;
	ln->blocks = m->len[msg] > m->held
			     ? (m->len[msg] - m->held) / m->algo->block_bytes : 0;
	ln->padding = false;
	memcpy(state(m, i), &init->state, m->state_bytes);
	if (!ln->blocks && !m->held)
		start_padding(m, i);
}

/* Lane I has absorbed its padding, or, where the family holds its last
 * block back, all but its last bytes: writes its digest and frees the
 * lane, moving the last busy lane into it. */
static void finish(struct many *m, unsigned i)
{
	const struct fh_hash_params p = { .outlen = m->outlen };
	struct many_lane *ln = &m->lane[i];
	uint8_t *out = m->out + ln->msg * m->outlen;
	unsigned last = --m->busy;
	fh_ctx ctx;

	fh_init_params(&ctx, m->algo, m->single, &p);
	memcpy(&ctx.state, state(m, i), m->state_bytes);
	if (m->held) {
		size_t rest = m->len[ln->msg] - ln->pos;

		ctx.total = ln->pos;
		/* An empty message may have no data at all. */
		if (rest)
			fh_update(&ctx, ln->data + ln->pos, rest);
		fh_final(&ctx, out, m->outlen);
	} else {
		fh_squeeze(&ctx, out, m->outlen);
	}
	if (i == last)
		return;
	m->lane[i] = m->lane[last];
	if (m->lane[i].padding)
		m->lane[i].data = m->lane[i].pad;
	memcpy(state(m, i), state(m, last), m->state_bytes);
}

/* Advances lanes 0..busy-1 by NBLOCKS blocks on kernel K; a kernel with
 * more lanes than are busy rereads lane 0's data into scratch states. */
static void advance(struct many *m, const struct fh_kernel *k, size_t nblocks)
{
	size_t block = m->algo->block_bytes;
	const uint8_t *data[FH_MAX_LANES];

	for (unsigned i = 0; i < k->lanes; i++) {
		const struct many_lane *ln = &m->lane[i < m->busy ? i : 0];

		data[i] = ln->data + ln->pos;
	}
	if (k->lanes == 1)
		fh_blocks(k, m->algo, m->states, data[0], nblocks);
	else
		fh_blocks_xn(k, m->algo, m->states, data, nblocks);
	for (unsigned i = 0; i < m->busy; i++) {
		m->lane[i].pos += nblocks * block;
		m->lane[i].blocks -= nblocks;
	}
}

void fh_hash_many_on(const struct fh_algo *algo, const struct fh_kernel *multi,
		     const struct fh_kernel *single, bool fixed, size_t n,
		     const void *const *data, const size_t *len, uint8_t *out,
		     size_t outlen)
{
	assert(algo->xof ? outlen <= FH_MAX_XOF_BYTES
			 : outlen == algo->digest_bytes);
	/* KT128/KT256 are trees: one message already fills the lanes with
	 * its leaves (fh_init), so they go one after another; so do BLAKE3's
	 * messages, whose chunks fill the lanes in the same way. */
	if (!multi || algo->cv_bytes || fh_lane_max(algo)) {
		for (size_t i = 0; i < n; i++) {
			const struct fh_hash_params p = { .outlen = outlen };
			fh_ctx ctx;

			fh_init_params(&ctx, algo,
				       algo->cv_bytes && multi ? multi : single, &p);
			fh_update(&ctx, data[i], len[i]);
			fh_final(&ctx, out + i * outlen, outlen);
		}
		return;
	}

	struct many m = {
		.algo = algo, .single = single, .data = data, .len = len,
		.out = out, .outlen = outlen,
		.state_bytes = fh_state_bytes(algo->family),
		.held = fh_held_bytes(algo->family),
	};
	const struct fh_hash_params p = { .outlen = outlen };
	const struct fh_kernel *narrow[FH_MAX_LANES + 1];
	uint32_t cpu = fh_cpu_features();
	struct order order[FH_MANY_WINDOW];
	size_t next = 0, taken = 0, sorted = 0;
	fh_ctx init;

	fh_init_params(&init, algo, single, &p);
	for (unsigned b = 1; b <= multi->lanes; b++)
		narrow[b] = fixed ? multi : fh_kernel_narrowest(multi, b, cpu);
	for (;;) {
		/* Fill the free lanes, sorting the next window when one runs
		 * out. */
		while (m.busy < multi->lanes && next < n) {
			if (taken == sorted) {
				sorted = n - next < FH_MANY_WINDOW ? n - next
								   : FH_MANY_WINDOW;
				for (size_t i = 0; i < sorted; i++)
					order[i] = (struct order){ len[next + i],
								   next + i };
				qsort(order, sorted, sizeof *order, longer_first);
				taken = 0;
			}
			start(&m, m.busy++, order[taken++].msg, &init);
			next++;
		}
		if (!m.busy)
			break;

		size_t k = SIZE_MAX;

		for (unsigned i = 0; i < m.busy; i++)
			if (m.lane[i].blocks < k)
				k = m.lane[i].blocks;
		/* One lane left and nothing to join it: the single-stream
		 * kernel is faster for one message. */
		if (k)
			advance(&m, m.busy == 1 && next == n && !fixed
					    ? single : narrow[m.busy],
				k);
		for (unsigned i = m.busy; i-- > 0;) {
			if (m.lane[i].blocks)
				continue;
			if (!m.lane[i].padding && !m.held)
				start_padding(&m, i);
			else
				finish(&m, i);
		}
	}
}

void fh_hash_many(const struct fh_algo *algo, size_t n,
		  const void *const *data, const size_t *len, uint8_t *out,
		  size_t outlen)
{
	fh_hash_many_on(algo, fh_kernel_best_multi(algo->family),
			fh_kernel_best(algo->family), false, n, data, len, out,
			outlen);
}

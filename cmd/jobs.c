/* jobs.c: what the command tells the engine: its options, and the
 * kernels of each job. */
#include "cli.h"
#include "engine/engine.h"
#include "kernel.h"
#include "lines.h"

void fh_job_kernels(const struct cli *c, struct fh_job *job)
{
	enum fh_family f = job->algo->family;

	job->kernel = c->kernels->by_family[f];
	job->multi = c->kernels->multi[f];
	job->multi_only = job->multi && c->kernels->forced[f];
}

/* --debug's line on how the I/O depth was chosen. */
static void note(void *ctx, const char *line)
{
	(void)ctx;
	fh_error(0, "%s", line);
}

void fh_engine_opts_for(const struct cli *c, struct fh_engine_opts *e)
{
	*e = (struct fh_engine_opts){
		.threads = c->threads,
		.io_depth = c->io_depth,
		.no_mmap = c->no_mmap,
		.always_ahead = c->always_ahead,
		.feed = (enum fh_feed)c->feed,
		.note = c->debug ? note : NULL,
	};
	for (size_t f = 0; f < FH_FAMILY_COUNT; f++)
		e->lanes |= c->kernels->multi[f] != NULL;
	e->tick = fh_progress_start(c->progress) ? fh_progress_tick : NULL;
	/* A list or names read from a slow pipe do not freeze the line. */
	if (e->tick)
		fh_lines_wait_hook = fh_engine_idle;
}

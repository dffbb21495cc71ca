/* guard.c: the guards of guard.h.  Each thread notes the window it is
 * hashing; the handler jumps back only for a fault inside the faulting
 * thread's own noted window, and for any other fault puts the default
 * action back and returns, so the access faults again and ends the
 * process as if no handler had been there.  macOS reports a bad page of
 * a mapped file as SIGBUS or as SIGSEGV, Linux and FreeBSD as SIGBUS:
 * both are caught.  Never MAP_RESILIENT_MEDIA, which would hash zeros. */
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "guard.h"

static __thread struct {
	sigjmp_buf jump;
	const uint8_t *lo, *hi;
	volatile sig_atomic_t armed;
} window;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	const uint8_t *addr = si->si_addr;

	(void)uc;
	if (window.armed && addr >= window.lo && addr < window.hi) {
		window.armed = 0;
		siglongjmp(window.jump, 1);
	}
	/* Not ours: let the fault take its default course on return. */
	signal(sig, SIG_DFL);
}

void fh_guard_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
}

bool fh_guard_run(const uint8_t *map, size_t maplen, void (*fn)(void *),
		  void *arg)
{
	if (sigsetjmp(window.jump, 1))
		return false;
	window.lo = map;
	window.hi = map + maplen;
	window.armed = 1;
	fn(arg);
	window.armed = 0;
	return true;
}

struct update {
	fh_ctx *ctx;
	const uint8_t *p;
	size_t len;
};

static void update_ctx(void *arg)
{
	struct update *u = arg;

	fh_update(u->ctx, u->p, u->len);
}

bool fh_guard_update(fh_ctx *ctx, const uint8_t *map, size_t maplen,
		     const uint8_t *p, size_t len)
{
	struct update u = { ctx, p, len };

	return !len || fh_guard_run(map, maplen, update_ctx, &u);
}

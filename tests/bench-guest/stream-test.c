// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of bench/guest/util.c's stream (tests/bench-guest.sh): with
 * chstream_kb=0 there is none; otherwise each task's region is its share
 * of 8 times the cache (1 MB at least), each read takes the next
 * stream_kb of new lines in order, no line comes back before the whole
 * region was read, and every page was written (untouched pages would all read the one zero page). The cache it
 * is sized on comes from boot.sh's chk word (model_kb), read by chk_long().
 */
#include <stdio.h>
#include <stdlib.h>
#include "../../bench/guest/bench.h"

static int npass, nfail;

static void expect(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	ok ? npass++ : nfail++;
}

int main(void)
{
	struct stream st;
	unsigned long before, want = 0;
	size_t i, lines;
	int distinct = 1;

	sh = calloc(1, sizeof(*sh));
	if (!sh)
		return 1;
	setenv("chk", "hz:1000,cpus:2,model_kb:4096,miss_ns:150", 1);
	expect("chk-model-kb", chk_long("model_kb", 64) == 4096);
	expect("chk-first-key", chk_long("hz", 0) == 1000 && guest_hz() == 1000);
	expect("chk-whole-key-only", chk_long("kb", 64) == 64 && chk_long("model", 7) == 7);
	unsetenv("chk");
	expect("chk-absent-default", chk_long("model_kb", 64) == 64);
	expect("stream-0-kb-none", make_stream(&st, 0, 16384, 6) == 0 && st.lines == 0);
	before = sh->sink;
	stream_read(&st, 64);
	expect("stream-0-kb-reads-nothing", sh->sink == before && st.pos == 0);

	expect("stream-region-8-caches-shared-by-tasks", make_stream(&st, 64, 4096, 8) == 0 &&
	       st.lines == 4096 * 1024 / 64);
	lines = st.lines;
	/* the lines of one read: 64 KB is 1024 of them, numbered from pos */
	before = sh->sink;
	stream_read(&st, 64);
	for (i = 0; i < 1024; i++)
		want += i;
	expect("stream-reads-64-kb-new-lines", st.pos == 1024 && sh->sink - before == want);
	/* the rest of the region, 64 KB at a time: each line once, then pos 0 */
	for (i = 1024; i < lines; i += 1024) {
		distinct &= st.pos == i;
		stream_read(&st, 64);
	}
	expect("stream-no-line-again-before-the-region", distinct && st.pos == 0);
	expect("stream-pages-written", st.base[(lines - 1) * 16] == lines - 1);
	expect("stream-region-at-least-1-mb", make_stream(&st, 64, 4096, 64) == 0 &&
	       st.lines == 1024 * 1024 / 64);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}

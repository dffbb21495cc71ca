# common.sh: what the benchmark scripts share (sourced, not run).
#
#   median                the median of the numbers on standard input
#   set_folio STATE FILE  FILE in the page cache in STATE: huge (2 MiB
#                         folios: the cache dropped, memory compacted and
#                         FILE read in order; needs root) or small (4 KiB
#                         folios: $smallfolios, smallfolios.c built, drops
#                         FILE and reads it again a page at a time)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

set_folio() {
	if [ "$1" = huge ]; then
		sync && echo 3 >/proc/sys/vm/drop_caches &&
			echo 1 >/proc/sys/vm/compact_memory
		cat "$2" >/dev/null
	else
		"$smallfolios" "$2"
	fi
}

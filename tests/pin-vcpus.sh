#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The vCPU pinning of `make bench` (scripts/bench.sh): boot.sh must ask
# QEMU to name its vCPU threads, and lib.sh's pin_vcpus must then pin
# "CPU n/TCG" to host core n modulo the cores. Unasked, QEMU names no
# thread, none matches, and a bench run's vCPUs go wherever the host puts
# them while info.txt would say "pinned: yes".
# A paused QEMU (-S, no kernel) is enough: its vCPU threads exist from the
# start. bench.sh itself runs against a fake QEMU (section 4).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

work=$BUILD/pin-vcpus-test
rm -rf "$work"
mkdir -p "$work/bin"
need_cmd qemu-system-x86_64
need_cmd taskset
real_qemu=$(command -v qemu-system-x86_64)

# A fake qemu with no vCPU threads of its own: it records its arguments
# (FAKE_ARGS), writes a console that boot.sh passes, and lives FAKE_SLEEP
# seconds, long enough for bench.sh to find it.
cat > "$work/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
[ -z "${FAKE_ARGS:-}" ] || printf '%s\n' "$@" > "$FAKE_ARGS"
log=
for a in "$@"; do case $a in file:*) log=${a#file:} ;; esac; done
printf 'Linux version 2.6.9\r\nGUEST PASS fake\r\nGUEST END\r\n' > "$log"
sleep "${FAKE_SLEEP:-0}"
EOF

# 1. boot.sh passes the naming.
chmod +x "$work/bin/qemu-system-x86_64"
: > "$work/image"
: > "$work/initrd"
rc=0
env PATH="$work/bin:$PATH" FAKE_ARGS="$work/args" BUILD_DIR="$work/build" \
	BOOT_NAME=pin-vcpus CHHZ=1000 sh scripts/boot.sh "$work/image" "$work/initrd" smp \
	> "$work/boot.out" 2>&1 < /dev/null || rc=$?
if [ "$rc" = 0 ] && grep -q -x -- -name "$work/args" &&
	grep -q -x 'cachehot,debug-threads=on' "$work/args"; then
	t_ok boot-names-vcpu-threads
else
	t_ko boot-names-vcpu-threads "boot.sh rc $rc; qemu got: $(tr '\n' ' ' < "$work/args" 2>/dev/null | cut -c 1-200)"
fi

# qemu_paused CPUS [ARGS...]: a paused QEMU in the background, its pid in
# $qp once it has its main, RCU and CPUS vCPU threads, named or not (or
# 10 s have passed).
qemu_paused() {
	qp_n=$1
	shift
	"$real_qemu" "$@" -accel tcg -smp "$qp_n" -m 64 -display none -nodefaults -S \
		2> "$work/qemu.err" &
	qp=$!
	i=0
	while [ $i -lt 50 ] && [ "$(find /proc/$qp/task -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -lt $((qp_n + 2)) ]; do
		sleep 0.2
		i=$((i + 1))
	done
}
# affinity_of PID N: the host cores "CPU N/TCG" of QEMU PID may run on
affinity_of() {
	for t in /proc/"$1"/task/*; do
		case $(cat "$t/comm" 2>/dev/null) in "CPU $2/"*)
			taskset -p -c "${t##*/}" | sed 's/.*: //' ;;
		esac
	done
}

# 2. With boot.sh's naming, pin_vcpus pins every vCPU thread, each to its
# own core modulo the host's (4 vCPUs: 2 a core on a 2-core host).
ncores=$(nproc)
for n in 2 4; do
	# shellcheck disable=SC2086 # $QEMU_NAME_ARGS: an option and its value
	qemu_paused $n $QEMU_NAME_ARGS
	got=$(pin_vcpus "$qp")
	bad=
	c=0
	while [ $c -lt $n ]; do
		a=$(affinity_of "$qp" $c)
		[ "$a" = "$((c % ncores))" ] || bad="$bad CPU $c on '$a';"
		c=$((c + 1))
	done
	kill "$qp" 2> /dev/null || true
	wait "$qp" 2> /dev/null || true
	if [ "$got" = "$n" ] && [ -z "$bad" ]; then
		t_ok "pin-vcpus-$n-pinned"
	else
		t_ko "pin-vcpus-$n-pinned" "pin_vcpus said $got;$bad"
	fi
done

# 3. Without the naming no thread is found: pin_vcpus says 0, which
# bench.sh stops on.
qemu_paused 2
got=$(pin_vcpus "$qp")
kill "$qp" 2> /dev/null || true
wait "$qp" 2> /dev/null || true
if [ "$got" = 0 ]; then t_ok pin-vcpus-unnamed-finds-none
else t_ko pin-vcpus-unnamed-finds-none "pin_vcpus said $got"; fi

# 4. bench.sh stops a run whose boot's vCPU threads were not all pinned;
# BENCH_PIN=0, or more vCPUs than host cores, runs unpinned and says why.
# The fake qemu stands in for the boot, so every run fails later, at its
# empty results; the kernels and the bench guest are the ones `make
# check` built before this test.
# bench_case NAME PIN CPUS WANT_STOP SAYS: bench.sh's stderr must have
# SAYS, and the stop for unpinned threads exactly when WANT_STOP is 1
bench_case() {
	rc=0
	env PATH="$work/bin:$PATH" FAKE_SLEEP=5 BENCH_PIN="$2" BENCH_CPUS="$3" QUICK=1 BENCH_LOADS=oltp \
		BENCH_POINTS=2500,pin,mig BENCH_REPS=1 sh scripts/bench.sh \
		> "$work/bench.out" 2> "$work/$1.err" < /dev/null || rc=$?
	res=$(sed -n 's/^>>> bench: results in //p' "$work/$1.err")
	case $res in "$ROOT"/results/?*) rm -rf "$res" ;; esac
	stop=$(grep -c "pinned 0 of its $3 vCPU threads" "$work/$1.err" || true)
	if [ -n "$res" ] && [ "$rc" != 0 ] && [ "$stop" = "$4" ] &&
		grep -q -F ">>> bench: vCPU threads pinned: $5" "$work/$1.err"; then
		t_ok "$1"
	else
		t_ko "$1" "rc $rc, stops $stop; stderr ends: $(tail -n 2 "$work/$1.err" | tr '\n' '|')"
	fi
}
bench_case bench-stops-on-unpinned-boot 1 2 1 yes
bench_case bench-pin-0-runs-unpinned 0 2 0 'no (BENCH_PIN=0)'
bench_case bench-more-vcpus-than-cores-unpinned 1 $((ncores + 1)) 0 "no ($((ncores + 1)) vCPUs share $ncores host cores"

t_finish

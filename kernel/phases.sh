#!/bin/sh
# The phases of CONFIG_PROC_SYSFS_MOUNT_FLAGS, from configs/phases, the
# one list of them, and the Kconfig fragment of each, which follows from
# its name.
#
# usage: kernel/phases.sh                 the phases, one per line, loosest first
#        kernel/phases.sh fragment PHASE  the fragment that selects PHASE
set -eu
configs=$(cd "$(dirname "$0")/../configs" && pwd)
phases=$(grep -v '^#' "$configs/phases" | grep .)
# A name becomes a Kconfig symbol and a column of tests/spec.md.
if echo "$phases" | grep -qvx '[a-z][a-z]*'; then
	echo "phases.sh: configs/phases: '$(echo "$phases" | grep -vx '[a-z][a-z]*' | head -n 1)' is not a phase name (lower-case letters only)" >&2
	exit 1
fi
case ${1:-} in
'')
	echo "$phases" ;;
fragment)
	[ $# -eq 2 ] || { sed -n '6,7p' "$0" >&2; exit 2; }
	case $2 in
	'' | *[!a-z]*) false ;;
	*) echo "$phases" | grep -qxF -- "$2" ;;
	esac || {
		echo "phases.sh: '$2' is not a phase: configs/phases has $(echo $phases)" >&2
		exit 1
	}
	echo "# The $2 phase of CONFIG_PROC_SYSFS_MOUNT_FLAGS, from configs/phases."
	echo "CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$2" | tr a-z A-Z)=y" ;;
*)
	sed -n '6,7p' "$0" >&2; exit 2 ;;
esac

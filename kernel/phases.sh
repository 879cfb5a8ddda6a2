#!/bin/sh
# The phases, one per line, loosest first: configs/phases, checked
# against the Kconfig fragment each must have (configs/NAME.config).
#
# usage: kernel/phases.sh
set -eu
configs=$(cd "$(dirname "$0")/../configs" && pwd)
grep -v '^#' "$configs/phases" | grep . | while read -r name; do
	sym=CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$name" | tr a-z A-Z)
	if ! grep -qx "$sym=y" "$configs/$name.config" 2>/dev/null; then
		echo "phases.sh: configs/phases names '$name', but configs/$name.config does not select $sym=y" >&2
		exit 1
	fi
	echo "$name"
done

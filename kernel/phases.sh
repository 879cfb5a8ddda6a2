#!/bin/sh
# The phases, one per line: each configs/NAME.config that selects
# CONFIG_PROC_SYSFS_MOUNT_FLAGS_NAME (base, debug and fixed are not phases).
#
# usage: kernel/phases.sh
set -eu
configs=$(cd "$(dirname "$0")/../configs" && pwd)
for f in "$configs"/*.config; do
	name=$(basename "$f" .config)
	sym=CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$name" | tr a-z A-Z)
	grep -qx "$sym=y" "$f" && echo "$name"
done

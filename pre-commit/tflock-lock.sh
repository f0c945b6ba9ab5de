#!/usr/bin/env bash
# The tflock-lock hook (.pre-commit-hooks.yaml): for each directory of the changed files
# that has a lock file, lock when something may be missing. A changed configuration may
# require a provider or version the lock lacks, so it is locked; a changed lock alone is
# locked only when `lockfile coverage` (metadata, no downloads) finds a platform missing.
# `providers lock` writes the file only when it changes, and its hash cache means a warm
# run downloads nothing.
set -euo pipefail
source "$(dirname -- "${BASH_SOURCE[0]}")/dirs.sh"
# The changed configuration files' directories.
config_dirs=""
for arg in "$@"; do
  case $arg in
    -*) ;;
    *.tf | *.tofu | *.tf.json | *.tofu.json) config_dirs+="$(dirname -- "$arg")"$'\n' ;;
  esac
done
status=0
while IFS= read -r dir; do
  [[ -n $dir ]] || continue
  if ! grep -qxF -- "$dir" <<<"$config_dirs"; then
    set +e
    "$TFLOCK" -chdir="$dir" lockfile coverage "${FLAGS[@]}" >/dev/null
    covered=$?
    set -e
    # 0: complete; 2: a platform is missing; 1: an error, which locking reports too.
    [[ $covered == 0 ]] && continue
  fi
  echo "tflock-lock: $dir"
  "$TFLOCK" -chdir="$dir" providers lock "${FLAGS[@]}" || status=1
done <<<"$DIRS"
exit "$status"

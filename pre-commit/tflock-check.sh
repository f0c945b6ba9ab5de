#!/usr/bin/env bash
# The tflock-check hook (.pre-commit-hooks.yaml): for each directory of the changed files
# that has a lock file, the lock must parse, be in canonical form and satisfy the
# configuration's requirements (offline), and cover the platforms given as args (registry
# metadata, no package downloads). Writes nothing.
set -euo pipefail
source "$(dirname -- "${BASH_SOURCE[0]}")/dirs.sh"
status=0
while IFS= read -r dir; do
  [[ -n $dir ]] || continue
  if ! "$TFLOCK" lockfile fmt -check "$dir/.terraform.lock.hcl" >/dev/null; then
    echo "tflock-check: $dir/.terraform.lock.hcl is not formatted (tflock lockfile fmt -w)"
    status=1
  fi
  if ! "$TFLOCK" lockfile check --config "$dir" >/dev/null; then
    echo "tflock-check: $dir/.terraform.lock.hcl does not satisfy the configuration (tflock lockfile check --config $dir)"
    status=1
  fi
  if ! "$TFLOCK" -chdir="$dir" lockfile coverage "${FLAGS[@]}"; then
    echo "tflock-check: $dir/.terraform.lock.hcl does not cover every platform (see above)"
    status=1
  fi
done <<<"$DIRS"
exit "$status"

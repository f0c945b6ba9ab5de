# Sourced by the hook scripts. pre-commit passes the hook's args, then the changed files:
# splits them into FLAGS (the arguments starting with "-") and DIRS (the distinct
# directories of the files that hold a lock file, one per line).
FLAGS=()
DIRS=""
for arg in "$@"; do
  if [[ $arg == -* ]]; then
    FLAGS+=("$arg")
  else
    dir=$(dirname -- "$arg")
    if [[ -f $dir/.terraform.lock.hcl ]] && ! grep -qxF -- "$dir" <<<"$DIRS"; then
      DIRS+="$dir"$'\n'
    fi
  fi
done
TFLOCK=${TFLOCK:-tflock}

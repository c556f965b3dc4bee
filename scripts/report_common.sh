# Shared by the report scripts that run cachesim compare over committed measurements (sourced from
# the repository root, after `bin` is set).

# report_args NAME ITEMS ARG...: --jobs N into $jobs (0, every core, when not given); -h/--help
# prints the calling script's header comment and exits; any other option is an error (exit 2);
# the other arguments into the array named ITEMS.
report_args() {
  local name=$1
  local -n report_items=$2
  shift 2
  jobs=0 report_items=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --jobs) jobs="$2"; shift 2 ;;
      -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
      -*) echo "$name: unknown option $1 (see --help)" >&2; exit 2 ;;
      *) report_items+=("$1"); shift ;;
    esac
  done
}

# require_cachesim NAME: exit 2 with a message unless $bin is an executable.
require_cachesim() {
  if [ ! -x "$bin" ]; then
    echo "$1: no cachesim binary at $bin (build with scripts/build.sh, or set CACHESIM_BIN)" >&2
    exit 2
  fi
}

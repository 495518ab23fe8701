#!/usr/bin/env bash
# Installs Nimbus under a prefix like any command-line tool, or removes what it installed:
#
#   scripts/install.sh [--prefix DIR] [--force]     (default prefix: ~/.local)
#   scripts/install.sh [--prefix DIR] --uninstall
#
# Builds the release binary if it is missing or older than a source (scripts/build-release.sh),
# then installs
#   bin/nimbus                                   the binary, stripped
#   share/nimbus/                                the data: every file SwiftPM copies beside the binary
#   share/man/man1/nimbus.1.gz                   the man page (docs/nimbus.1)
#   share/bash-completion/completions/nimbus     bash (bash-completion reads it under /usr, /usr/local, ~/.local)
#   share/zsh/site-functions/_nimbus             zsh (share/zsh/vendor-completions/_nimbus under /usr, Debian's place)
#   share/fish/vendor_completions.d/nimbus.fish  fish
#   share/doc/nimbus/SOURCES.md                  where the data comes from, and its licences
# The binary finds the data in <prefix>/share/nimbus from its own path, so it needs no build folder.
#
# What was installed is listed in share/nimbus/.installed-files; --uninstall removes exactly those
# files and the folders the install made, once empty. Nothing else is ever removed: with the default
# prefix share/nimbus is also the user's data folder (likes, wishlist), and it stays with them.
# Files already there that an earlier install did not put there are not overwritten without --force.
#
# --stage DIR writes the files under DIR as if installed at the prefix, with no list (for packages:
# scripts/package-deb.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

prefix="$HOME/.local"
uninstall=0
force=0
stage=
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || { echo "install: --prefix needs a folder" >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --uninstall) uninstall=1; shift ;;
    --force) force=1; shift ;;
    --stage) [ $# -ge 2 ] || { echo "install: --stage needs a folder" >&2; exit 2; }; stage=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown argument '$1' (scripts/install.sh --help)" >&2; exit 2 ;;
  esac
done
case $prefix in
  /*) ;;
  *) prefix="$(pwd)/$prefix" ;;
esac
prefix=${prefix%/}
[ -n "$prefix" ] || prefix=/
[ -n "$stage" ] && [ "$uninstall" = 1 ] && { echo "install: --stage and --uninstall don't go together" >&2; exit 2; }
dest="${stage:+${stage%/}}$prefix"
manifest_rel=share/nimbus/.installed-files
manifest="$dest/$manifest_rel"

# A listed path is used only when it is relative, stays under the prefix and is printable.
valid_entry() {
  case $1 in
    ''|/*|..|../*|*/..|*/../*|*[[:cntrl:]]*) return 1 ;;
  esac
  return 0
}

# Prints the manifest's entries ("f PATH" or "d PATH"), skipping any line that is not one.
read_manifest() {
  [ -f "$manifest" ] || return 0
  while IFS= read -r line; do
    kind=${line%% *}; path=${line#* }
    case $kind in f|d) ;; *) continue ;; esac
    valid_entry "$path" && printf '%s %s\n' "$kind" "$path"
  done < "$manifest"
}

# Removes the listed files, then the listed folders that are empty, deepest first.
remove_listed() { # manifest-lines...
  local line kind path
  for line in "$@"; do
    kind=${line%% *}; path=${line#* }
    if [ "$kind" = f ] && { [ -f "$dest/$path" ] || [ -L "$dest/$path" ]; }; then rm -f -- "$dest/$path"; fi
  done
  printf '%s\n' "$@" | sed -n 's/^d //p' | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2- |
    while IFS= read -r path; do rmdir -- "$dest/$path" 2>/dev/null || true; done
}

if [ "$uninstall" = 1 ]; then
  [ -f "$manifest" ] || { echo "install: nothing to uninstall: no $manifest" >&2; exit 1; }
  mapfile -t entries < <(read_manifest)
  rm -f -- "$manifest"
  remove_listed "${entries[@]}"
  echo "uninstalled Nimbus from $prefix (${#entries[@]} entries); your likes, wishlist, settings and cache are untouched"
  exit 0
fi

build="$root/.build/release"
binary="$build/nimbus"
# Built when there is no release binary or a source is newer than it (swift build would find so too,
# only more slowly).
if [ ! -x "$binary" ] || [ -n "$(find "$root/Package.swift" "$root/Sources" "$root/Resources" "$root/Localization" \
      "$root/Plugins" -newer "$binary" -print -quit 2>/dev/null)" ]; then
  "$root/scripts/setup.sh"
  "$root/scripts/build-release.sh" nimbus
fi

# Every file to install: its source, its path under the prefix and its mode.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=() targets=() modes=()
add() { sources+=("$1"); targets+=("$2"); modes+=("$3"); }
add "$binary" bin/nimbus 755
shopt -s nullglob
bundles=("$build"/Nimbus_*.resources)
shopt -u nullglob
[ ${#bundles[@]} -gt 0 ] || { echo "install: no data beside $binary (Nimbus_*.resources)" >&2; exit 1; }
for bundle in "${bundles[@]}"; do
  while IFS= read -r -d '' file; do
    add "$file" "share/nimbus/${file#"$bundle"/}" 644
  done < <(find "$bundle" -type f ! -name '.*' -print0 | sort -z)
done
gzip -9n < "$root/docs/nimbus.1" > "$work/nimbus.1.gz"
add "$work/nimbus.1.gz" share/man/man1/nimbus.1.gz 644
zsh_dir=share/zsh/site-functions
[ "$prefix" = /usr ] && zsh_dir=share/zsh/vendor-completions
for shell in bash zsh fish; do
  "$binary" --generate-completion-script "$shell" > "$work/completion.$shell"
  [ -s "$work/completion.$shell" ] || { echo "install: nimbus printed no $shell completion script" >&2; exit 1; }
done
# bash-completion sources the file: no #! line.
sed -i '1{/^#!/d}' "$work/completion.bash"
add "$work/completion.bash" share/bash-completion/completions/nimbus 644
add "$work/completion.zsh" "$zsh_dir/_nimbus" 644
add "$work/completion.fish" share/fish/vendor_completions.d/nimbus.fish 644
add "$root/Resources/SOURCES.md" share/doc/nimbus/SOURCES.md 644
for to in "${targets[@]}"; do
  valid_entry "$to" || { echo "install: refusing to install to '$to'" >&2; exit 1; }
done

previous=()
[ -z "$stage" ] && mapfile -t previous < <(read_manifest)
listed() { printf '%s\n' "${previous[@]}" | grep -xF -- "f $1" >/dev/null; }

# Files that are there and not ours stop the install, unless --force.
if [ -z "$stage" ] && [ "$force" = 0 ]; then
  clashes=()
  for to in "${targets[@]}"; do
    if [ -e "$dest/$to" ] && ! listed "$to"; then clashes+=("$dest/$to"); fi
  done
  if [ ${#clashes[@]} -gt 0 ]; then
    echo "install: not overwriting files an earlier install did not put there (move them away, or use --force):" >&2
    printf '  %s\n' "${clashes[@]}" >&2
    exit 1
  fi
fi

# Folders: the ones made now are listed, with those an earlier install made.
made=()
for line in "${previous[@]}"; do [ "${line%% *}" = d ] && made+=("${line#d }"); done
make_dirs() { # relative folder
  local dir=$1 parts=() d
  while [ "$dir" != . ] && [ ! -d "$dest/$dir" ]; do parts=("$dir" "${parts[@]}"); dir=$(dirname "$dir"); done
  for d in "${parts[@]}"; do
    mkdir -m 755 -- "$dest/$d"
    made+=("$d")
  done
}
mkdir -p -- "$dest"

new_manifest=()
for i in "${!targets[@]}"; do
  from=${sources[$i]} to=${targets[$i]} mode=${modes[$i]}
  make_dirs "$(dirname "$to")"
  # Beside the target, then renamed over it: a running nimbus keeps its mapped catalogue and binary.
  tmp="$dest/$(dirname "$to")/.$(basename "$to").installing"
  if [ "$to" = bin/nimbus ]; then
    strip --strip-all --remove-section=.comment --remove-section=.note -o "$tmp" "$from"
  else
    cp -- "$from" "$tmp"
  fi
  chmod "$mode" "$tmp"
  mv -f -- "$tmp" "$dest/$to"
  new_manifest+=("f $to")
done

if [ -z "$stage" ]; then
  # What an earlier install put there and this one did not (a data file since renamed) goes.
  stale=()
  for line in "${previous[@]}"; do
    [ "${line%% *}" = f ] || continue
    printf '%s\n' "${new_manifest[@]}" | grep -xF -- "$line" >/dev/null || stale+=("$line")
  done
  [ ${#stale[@]} -gt 0 ] && remove_listed "${stale[@]}"
  for d in "${made[@]}"; do new_manifest+=("d $d"); done
  printf '%s\n' "${new_manifest[@]}" | awk '!seen[$0]++' > "$manifest.tmp"
  mv -f -- "$manifest.tmp" "$manifest"
  echo "installed Nimbus $("$dest/bin/nimbus" --version | sed -n 1p | cut -d' ' -f2) in $prefix: $prefix/bin/nimbus, its data in $prefix/share/nimbus"
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on PATH" ;; esac
  [ "$zsh_dir" = share/zsh/site-functions ] && [ "$prefix" != /usr/local ] &&
    echo "note: zsh reads completions from $prefix/$zsh_dir once it is on fpath (fpath+=($prefix/$zsh_dir) in ~/.zshrc)"
  echo "uninstall with: scripts/install.sh --prefix $prefix --uninstall"
fi

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
# What was installed is listed in share/nimbus/.installed-files, each file with the sha256 of what
# was written, recorded before the file is written (an interrupted install leaves nothing unlisted).
# --uninstall removes exactly those files whose content is still what was installed (a wrapper put
# at bin/nimbus since stays), never through a link inside the prefix, and the folders the install
# made, once empty. Nothing else is ever removed: with the default prefix share/nimbus is also the
# user's data folder (likes, wishlist; made 0700, as the app makes it), and it stays with them.
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
    --prefix) [ $# -ge 2 ] && [ -n "$2" ] || { echo "install: --prefix needs a folder" >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; [ -n "$prefix" ] || { echo "install: --prefix needs a folder" >&2; exit 2; }; shift ;;
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

# Prints the manifest's entries ("f SHA256 PATH", "d PATH"), skipping any line that is not one. An
# entry of an older install without its hash ("f PATH") is read as "f - PATH".
read_manifest() {
  [ -f "$manifest" ] && [ ! -L "$manifest" ] || return 0
  local line kind rest hash path
  while IFS= read -r line; do
    kind=${line%% *}; rest=${line#* }
    case $kind in
      f) hash=${rest%% *}
         if [[ $hash =~ ^[0-9a-f]{64}$|^-$ ]] && [ "$hash" != "$rest" ]; then path=${rest#* }; else hash=-; path=$rest; fi
         valid_entry "$path" && printf 'f %s %s\n' "$hash" "$path" ;;
      d) valid_entry "$rest" && printf 'd %s\n' "$rest" ;;
    esac
  done < "$manifest"
}
entry_path() { local line=$1; [ "${line%% *}" = f ] && { line=${line#f }; line=${line#* }; printf '%s' "$line"; return; }; printf '%s' "${line#d }"; }

# The first folder on the way to PATH (relative to the destination) that is a link, if any: a
# listed path is never followed through one (a link made at share/doc would lead the removal elsewhere).
linked_folder() { # relative path
  local dir part
  dir=$(dirname "$1")
  [ "$dir" = . ] && return 1
  local walked=
  IFS=/ read -ra parts <<< "$dir"
  for part in "${parts[@]}"; do
    walked=${walked:+$walked/}$part
    if [ -L "$dest/$walked" ]; then printf '%s' "$walked"; return 0; fi
  done
  return 1
}

# Removes the listed files whose content is still what was installed (an entry without a hash, from
# an older install, as it is), never through a link; then the listed folders that are empty, deepest first.
remove_listed() { # manifest-lines...
  local line kind path hash link
  for line in "$@"; do
    kind=${line%% *}
    [ "$kind" = f ] || continue
    path=$(entry_path "$line"); hash=${line#f }; hash=${hash%% *}
    if link=$(linked_folder "$path"); then
      echo "install: not removed: $dest/$path (reached through the link $dest/$link)" >&2; continue
    fi
    [ -e "$dest/$path" ] || [ -L "$dest/$path" ] || continue
    if [ -L "$dest/$path" ] || [ ! -f "$dest/$path" ]; then
      echo "install: not removed: $dest/$path (not the file that was installed: now a link or not a file)" >&2; continue
    fi
    if [ "$hash" != - ] && [ "$(sha256sum < "$dest/$path" | cut -d' ' -f1)" != "$hash" ]; then
      echo "install: kept $dest/$path: it changed since it was installed" >&2; continue
    fi
    rm -f -- "$dest/$path"
  done
  printf '%s\n' "$@" | sed -n 's/^d //p' | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2- |
    while IFS= read -r path; do
      linked_folder "$path/x" >/dev/null && continue
      rmdir -- "$dest/$path" 2>/dev/null || true
    done
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
# Each listed file's hash by its path.
declare -A listed_hash=()
for line in "${previous[@]}"; do
  [ "${line%% *}" = f ] || continue
  hash=${line#f }; listed_hash[$(entry_path "$line")]=${hash%% *}
done
# The file at PATH is one an earlier install put there, unchanged since (or listed without a hash).
ours() {
  [ -n "${listed_hash[$1]+set}" ] || return 1
  [ "${listed_hash[$1]}" = - ] && return 0
  [ -f "$dest/$1" ] && [ ! -L "$dest/$1" ] && [ "$(sha256sum < "$dest/$1" | cut -d' ' -f1)" = "${listed_hash[$1]}" ]
}

# Nothing is written through a link inside the prefix.
for to in "${targets[@]}"; do
  if link=$(linked_folder "$to"); then
    echo "install: $dest/$link is a link; not installing through it (move it away)" >&2
    exit 1
  fi
done

# Files that are there and not ours stop the install, unless --force.
if [ -z "$stage" ] && [ "$force" = 0 ]; then
  clashes=()
  for to in "${targets[@]}"; do
    if { [ -e "$dest/$to" ] || [ -L "$dest/$to" ]; } && ! ours "$to"; then clashes+=("$dest/$to"); fi
  done
  if [ ${#clashes[@]} -gt 0 ]; then
    echo "install: not overwriting files an earlier install did not put there, or that changed since (move them away, or use --force):" >&2
    printf '  %s\n' "${clashes[@]}" >&2
    exit 1
  fi
fi

# Folders: the ones made now are listed, with those an earlier install made. The data folder is the
# user's own too when the prefix is their XDG data home's (~/.local: likes, wishlist), and is made
# 0700 then, as the app makes it (README: what is kept where).
made=()
for line in "${previous[@]}"; do [ "${line%% *}" = d ] && made+=("${line#d }"); done
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
case $data_home in /*) ;; *) data_home=$HOME/.local/share ;; esac
make_dirs() { # relative folder
  local dir=$1 parts=() d mode
  while [ "$dir" != . ] && [ ! -d "$dest/$dir" ]; do parts=("$dir" "${parts[@]}"); dir=$(dirname "$dir"); done
  for d in "${parts[@]}"; do
    mode=755
    [ -z "$stage" ] && [ "$d" = share/nimbus ] && [ "$dest/$d" = "${data_home%/}/nimbus" ] && mode=700
    mkdir -m "$mode" -- "$dest/$d"
    made+=("$d")
  done
}
mkdir -p -- "$dest"

# The manifest as it stands: what an earlier install listed, what this one has written or is about to
# write, and the folders made. Rewritten before each file is put in place, so an install stopped
# half-way leaves every file it wrote listed (with its hash) for the next one.
new_manifest=()
declare -A written=()
write_manifest() {
  [ -n "$stage" ] && return 0
  local line
  {
    printf '%s\n' "${new_manifest[@]}"
    for line in "${previous[@]}"; do
      [ "${line%% *}" = f ] || continue
      [ -n "${written[$(entry_path "$line")]+set}" ] && continue
      printf '%s\n' "$line"
    done
    for line in "${made[@]}"; do printf 'd %s\n' "$line"; done
  } | awk 'NF && !seen[$0]++' > "$manifest.tmp"
  mv -f -- "$manifest.tmp" "$manifest"
}
make_dirs share/nimbus
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
  new_manifest+=("f $(sha256sum < "$tmp" | cut -d' ' -f1) $to")
  written[$to]=1
  write_manifest
  mv -f -- "$tmp" "$dest/$to"
done

if [ -z "$stage" ]; then
  # What an earlier install put there and this one did not (a data file since renamed) goes.
  stale=()
  for line in "${previous[@]}"; do
    [ "${line%% *}" = f ] || continue
    [ -n "${written[$(entry_path "$line")]+set}" ] || stale+=("$line")
  done
  [ ${#stale[@]} -gt 0 ] && remove_listed "${stale[@]}"
  previous=()
  write_manifest
  echo "installed Nimbus $("$dest/bin/nimbus" --version | sed -n 1p | cut -d' ' -f2) in $prefix: $prefix/bin/nimbus, its data in $prefix/share/nimbus"
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on PATH" ;; esac
  [ "$zsh_dir" = share/zsh/site-functions ] && [ "$prefix" != /usr/local ] &&
    echo "note: zsh reads completions from $prefix/$zsh_dir once it is on fpath (fpath+=($prefix/$zsh_dir) in ~/.zshrc)"
  echo "uninstall with: scripts/install.sh --prefix $prefix --uninstall"
fi

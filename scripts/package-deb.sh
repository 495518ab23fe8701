#!/usr/bin/env bash
# Builds the Debian package: scripts/package-deb.sh [--compress xz|gzip] [OUTPUT-DIR] (default
# .build/deb) writes OUTPUT-DIR/nimbus_<version>_<arch>.deb with dpkg-deb. xz (the default) makes the
# smallest package (25 MB) and takes minutes on a busy machine; gzip takes seconds (37 MB). (zstd,
# faster still, is refused by Debian 12's lintian.)
#
# Its files are what scripts/install.sh installs with the prefix /usr (the binary stripped, the data
# in /usr/share/nimbus, the man page, bash, zsh and fish completions), plus Debian's own:
# /usr/share/doc/nimbus/copyright in the machine-readable format (scripts/deb-copyright.py, from
# Resources/SOURCES.md and the Swift packages built in) and the changelog (changelog.gz: a native
# package, the project being its own upstream).
# The version is the one `nimbus --version` prints. Depends lists the packages of the libraries
# the binary links (dpkg-shlibdeps); libcurl, loaded only on the first request, is recommended.
# The maintainer is $DEBFULLNAME <$DEBEMAIL> when set, else git's user.name and user.email.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
compress=xz
if [ "${1:-}" = --compress ]; then
  [ $# -ge 2 ] || { echo "package-deb: --compress needs xz or gzip" >&2; exit 2; }
  compress=$2; shift 2
fi
case $compress in
  xz) level=6 ;;
  gzip) level=6 ;;
  *) echo "package-deb: unknown compression '$compress' (xz or gzip)" >&2; exit 2 ;;
esac
out=${1:-$root/.build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for tool in dpkg-deb dpkg-shlibdeps gzip strip; do
  command -v "$tool" >/dev/null || { echo "package-deb: $tool is missing (apt-get install dpkg-dev binutils)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg="$work/nimbus"
# Always built first, so the package has the commit it is made from.
"$root/scripts/setup.sh"
"$root/scripts/build-release.sh" nimbus
"$root/scripts/install.sh" --prefix /usr --stage "$pkg"

# The installed binary finds the staged data from its own path, so this is what the package holds.
version=$("$pkg/usr/bin/nimbus" --version | sed -n '1s/^nimbus //p')
[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || { echo "package-deb: '$version' is not a Debian version" >&2; exit 1; }
commit=$("$pkg/usr/bin/nimbus" --version | sed -n '2s/^commit //p')
arch=$(dpkg --print-architecture)

# Depends: the packages of the libraries the binary links, with the versions their symbols need.
mkdir -p "$work/src/debian"
printf 'Source: nimbus\n\nPackage: nimbus\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O -e "$pkg/usr/bin/nimbus" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Recommends: the package holding the libcurl that Sources/CLazyCurl opens on the first request.
# No reader in these pipes stops early: under pipefail a writer killed by SIGPIPE (ldconfig, while
# awk has already found its line) would end this script without a word.
curl_soname=$(grep -m1 -ao 'libcurl\.so\.[0-9]*' "$root/Sources/CLazyCurl/lazy_curl.c")
curl_path=$(ldconfig -p | awk -v so="$curl_soname" '!found && $1 == so && /x86-64|x86_64|'"$arch"'/ { print $NF; found = 1 }')
recommends=
if [ -n "$curl_path" ]; then
  curl_package=$(dpkg -S "$(realpath "$curl_path")" 2>/dev/null | awk -F: 'NR == 1 { print $1 }')
  curl_shlibs=$(dpkg-query --control-show "$curl_package" shlibs 2>/dev/null | awk -v so="${curl_soname#libcurl.so.}" '!found && $1 == "libcurl" && $2 == so { $1 = ""; $2 = ""; sub(/^  /, ""); print; found = 1 }')
  recommends=${curl_shlibs:-$curl_package}
fi
[ -n "$recommends" ] || { echo "package-deb: no installed package provides $curl_soname (apt-get install libcurl4)" >&2; exit 1; }

maintainer_name=${DEBFULLNAME:-$(git -C "$root" config user.name || true)}
maintainer_email=${DEBEMAIL:-$(git -C "$root" config user.email || true)}
[ -n "$maintainer_name" ] && [ -n "$maintainer_email" ] ||
  { echo "package-deb: set DEBFULLNAME and DEBEMAIL (or git's user.name and user.email)" >&2; exit 1; }

doc="$pkg/usr/share/doc/nimbus"
python3 "$root/scripts/deb-copyright.py" "$root/Resources/SOURCES.md" "$root/.build/release/nimbus" \
  "$root/.build/checkouts" "$(dirname "$(dirname "$(realpath "$(command -v swift)")")")/share/swift/LICENSE.txt" > "$doc/copyright"
date=$(git -C "$root" log -1 --format=%aD 2>/dev/null || date -R)
{
  printf 'nimbus (%s) unstable; urgency=medium\n\n' "$version"
  printf '  * Built from commit %s.\n\n' "$commit"
  printf ' -- %s <%s>  %s\n' "$maintainer_name" "$maintainer_email" "$date"
} | gzip -9n > "$doc/changelog.gz"

mkdir -p "$pkg/DEBIAN"
(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$pkg" | cut -f1)
cat > "$pkg/DEBIAN/control" <<EOF
Package: nimbus
Version: $version
Architecture: $arch
Maintainer: $maintainer_name <$maintainer_email>
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Section: utils
Priority: optional
Description: cities, weather and films in the terminal
 A keyboard-driven terminal app: search 34,000 cities (GeoNames) by any of their
 names in English, Korean or Japanese and see their weather (Open-Meteo), air
 quality, sunrise and sunset and a map; the earthquakes near your places (USGS);
 and search 17,000 films (Wikidata) offline, keeping a wishlist.
 .
 libcurl is loaded on the first network request only: without it everything
 offline still works.
EOF
find "$pkg" -type d -exec chmod 755 {} +
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
deb="$out/nimbus_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Z"$compress" -z"$level" --build "$pkg" "$deb" >/dev/null
echo "$deb ($(du -k "$deb" | cut -f1) KB; installed $installed_size KB)"

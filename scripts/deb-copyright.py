#!/usr/bin/env python3
"""Writes the Debian package's /usr/share/doc/nimbus/copyright (machine-readable format 1.0).

usage: deb-copyright.py SOURCES.md BINARY CHECKOUTS-DIR SWIFT-LICENSE > copyright

- The bundled data, one paragraph per section of Resources/SOURCES.md: its files, where the data
  comes from and the section's licences, taken from its "Licences:" lines. A licence phrase this
  script does not know stops it, so a new data file can't ship with its licence left out.
- The Swift packages built into the binary: those of CHECKOUTS-DIR (SwiftPM's .build/checkouts)
  with a module whose symbols are in BINARY (unstripped), each with the licence its LICENSE file
  states; and the Swift runtime and Foundation, linked in statically (SWIFT-LICENSE, the toolchain's).
"""
import os
import re
import subprocess
import sys

# Licence phrases of SOURCES.md's "Licences:" lines, and the short names they stand for.
PHRASES = [
    (r"Creative Commons Attribution 4\.0|\bCC BY 4\.0\b", "CC-BY-4.0"),
    (r"\bCC0 1\.0\b", "CC0-1.0"),
    (r"public domain", "public-domain"),
    (r"\bMIT licence\b", "Expat"),
    (r"\bBSD-3-Clause\b", "BSD-3-clause"),
    (r"GNU Lesser General Public License 3\.0 or later|\bLGPL-3\.0-or-later\b", "LGPL-3+"),
    (r"\bLGPL-3\.0(?!-or-later)\b", "LGPL-3"),
    (r"GNU Lesser General Public License 2\.1 or later|\bLGPL-2\.1-or-later\b", "LGPL-2.1+"),
    (r"Unicode License v3", "Unicode-3.0"),
]
# A licence item about code of which nothing is shipped is not a licence of the shipped files.
NOT_SHIPPED = re.compile(r"none of its code|build time only")

TEXTS = {
    "CC-BY-4.0": """Creative Commons Attribution 4.0 International Public License.
 You are free to share and adapt the material for any purpose, provided you give
 appropriate credit (here: the source each file above names), provide a link to the licence and
 indicate if changes were made. The full legal code is at
 https://creativecommons.org/licenses/by/4.0/legalcode""",
    "CC0-1.0": """On Debian systems, the full text of the CC0 1.0 Universal
 Public Domain Dedication can be found in /usr/share/common-licenses/CC0-1.0.""",
    "public-domain": """The data is in the public domain: Natural Earth data is placed in the
 public domain by its authors (naturalearthdata.com/about/terms-of-use).""",
    "LGPL-3+": """GSHHG is released under the GNU Lesser General Public License, version 3 or
 (at your option) any later version. On Debian systems, the full text of the GNU Lesser
 General Public License version 3 can be found in /usr/share/common-licenses/LGPL-3.""",
    "LGPL-3": """obspy's Flinn-Engdahl region tables (feregions.tsv) are released under the GNU Lesser
 General Public License, version 3. On Debian systems, the full text of the GNU Lesser General
 Public License version 3 can be found in /usr/share/common-licenses/LGPL-3.""",
    "LGPL-2.1+": """Debian's iso-codes (the region codes and their Japanese names in the city
 catalogue) is released under the GNU Lesser General Public License, version 2.1 or (at your
 option) any later version. On Debian systems, the full text of the GNU Lesser General Public
 License version 2.1 can be found in /usr/share/common-licenses/LGPL-2.1.""",
    "Unicode-3.0": """CLDR (the exemplar city names in the city catalogue): Copyright © 1991-2025
 Unicode, Inc. Released under the Unicode License v3: permission is granted, free of charge, to
 use, copy, modify, merge, publish, distribute and sell the data files, provided that this
 copyright and permission notice appear with all copies. The full text is at
 https://www.unicode.org/license.txt""",
    "Apache-2.0": """On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.""",
    "Apache-2.0-with-Runtime-Library-Exception": """On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
 .
 Runtime Library Exception to the Apache 2.0 License:
 As an exception, if you use this Software to compile your source code and portions of
 this Software are embedded into the binary product as a result, you may redistribute
 such product without providing attribution as would otherwise be required by Sections
 4(a), 4(b) and 4(d) of the License.""",
    "Expat": """Permission is hereby granted, free of charge, to any person obtaining a copy of
 this software and associated documentation files (the "Software"), to deal in the
 Software without restriction, including without limitation the rights to use, copy,
 modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
 to permit persons to whom the Software is furnished to do so, subject to the following
 conditions:
 .
 The above copyright notice and this permission notice shall be included in all copies
 or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
 INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
 PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT
 HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
 CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE
 OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.""",
    "BSD-3-clause": """Redistribution and use in source and binary forms, with or without modification,
 are permitted provided that the following conditions are met:
 1. Redistributions of source code must retain the above copyright notice, this list
    of conditions and the following disclaimer.
 2. Redistributions in binary form must reproduce the above copyright notice, this list
    of conditions and the following disclaimer in the documentation and/or other
    materials provided with the distribution.
 3. Neither the name of the copyright holder nor the names of its contributors may be
    used to endorse or promote products derived from this software without specific
    prior written permission.
 .
 THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY
 EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF
 MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL
 THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
 SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT
 OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
 INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT,
 STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF
 THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.""",
    "Unicode-ICU": """ICU, the International Components for Unicode, built into Foundation:
 Copyright (C) 2016 and later: Unicode, Inc. and others. License & terms of use:
 http://www.unicode.org/copyright.html (the Unicode License).""",
    "Nimbus-unstated": """The Nimbus source repository does not state a licence for its own code.""",
}


def fail(message):
    sys.exit(f"deb-copyright: {message}")


def plain(markdown):
    """Markdown of SOURCES.md as plain text: links as their text, no emphasis or code marks."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    return re.sub(r"[*`]", "", text)


def field(text):
    """A multi-line field value: continuation lines indented, empty lines as ' .'."""
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return "\n".join(" " + (line if line else ".") for line in lines)


def data_paragraphs(sources):
    """(files, licences, comment) for each section of SOURCES.md that names bundled files."""
    out = []
    for section in re.split(r"^## ", open(sources, encoding="utf-8").read(), flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        files = [f.strip() for f in heading.split(",")]
        if not all(re.fullmatch(r"[\w.-]+\.\w+", f) for f in files):
            continue  # "Regenerate" and other sections that are not files
        # Bullets, joined with their continuation lines.
        bullets, current = [], None
        for line in body.splitlines():
            if line.startswith("- "):
                current = [line[2:]]
                bullets.append(current)
            elif current is not None and line.startswith("  "):
                current.append(line.strip())
            else:
                current = None
        bullets = [plain(" ".join(b)) for b in bullets]
        licences = []
        for bullet in bullets:
            if not bullet.startswith("Licences:"):
                continue
            for item in re.split(r";", bullet[len("Licences:"):]):
                if NOT_SHIPPED.search(item):
                    continue
                names = [name for pattern, name in PHRASES if re.search(pattern, item)]
                if not names:
                    fail(f"unknown licence in SOURCES.md, section {heading!r}: {item.strip()!r} (add it to PHRASES)")
                licences += [n for n in names if n not in licences]
        if not licences:
            fail(f"SOURCES.md section {heading!r} names no licence")
        out.append((files, licences, "\n".join(bullets)))
    if not out:
        fail("no data sections in SOURCES.md")
    return out


def linked_packages(binary, checkouts):
    """(package, licence, holder) for each checked-out package with a module in the binary."""
    symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True).stdout
    if not symbols:
        fail(f"{binary} has no symbol table (give the unstripped binary)")
    out = []
    for package in sorted(os.listdir(checkouts)):
        root = os.path.join(checkouts, package)
        # Module folders: under Sources/, or at the top (GRDB.swift keeps GRDB/ there).
        folders = [os.path.join(root, "Sources", m) for m in listdir(os.path.join(root, "Sources"))]
        folders += [os.path.join(root, m) for m in listdir(root) if m != "Sources"]
        modules = {os.path.basename(f): f for f in folders if os.path.isdir(f)}
        # Swift symbols carry their module's name: $s<length><name>.
        linked = [f for m, f in modules.items() if f"$s{len(m)}{m}" in symbols]
        if not linked:
            continue
        licence_files = [f for f in os.listdir(os.path.join(checkouts, package)) if f.upper().startswith("LICENSE")]
        if not licence_files:
            fail(f"{package} has no LICENSE file")
        text = open(os.path.join(checkouts, package, licence_files[0]), encoding="utf-8", errors="replace").read()
        if "Apache License" in text and "Version 2.0" in text:
            licence = "Apache-2.0-with-Runtime-Library-Exception" if "Runtime Library Exception" in text else "Apache-2.0"
        elif "Permission is hereby granted, free of charge" in text:
            licence = "Expat"
        else:
            fail(f"the licence of {package} ({licence_files[0]}) is not one this script knows")
        holders = [h.strip() for h in re.findall(r"Copyright \(c\)[^\n]*|Copyright[^\n]*\d{4}[^\n]*", text)][:1]
        # Code embedded from elsewhere says so in its files' first lines (TOMLKit's toml++).
        for folder in linked + [os.path.join(root, "Sources")]:
            for dirpath, _, files in os.walk(folder):
                for name in files:
                    if not name.endswith((".swift", ".c", ".h", ".hpp", ".cpp")):
                        continue
                    with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                        head = "".join(f.readline() for _ in range(40))
                    for holder in re.findall(r"Copyright \(c\)[^\n]*", head):
                        holder = holder.strip()
                        if not any(same_holder(holder, h) for h in holders):
                            holders.append(holder)
        out.append((package, licence, "; ".join(holders[:6]) if holders else f"the {package} authors"))
    return out


def listdir(path):
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def same_holder(a, b):
    """Two copyright lines naming the same holder, whatever the years."""
    strip = lambda h: re.sub(r"[\d\s,-]+", " ", h.lower().replace("copyright (c)", "")).strip()
    return strip(a) == strip(b)


def main():
    if len(sys.argv) != 5:
        fail("usage: deb-copyright.py SOURCES.md BINARY CHECKOUTS-DIR SWIFT-LICENSE")
    sources, binary, checkouts, swift_licence = sys.argv[1:]
    if "Runtime Library Exception" not in open(swift_licence, encoding="utf-8").read():
        fail(f"{swift_licence} is not the Swift licence with its runtime library exception")
    used = ["Nimbus-unstated"]
    paragraphs = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: nimbus\n"
        "Comment: The program, the Swift packages and runtime built into it, and the data it ships\n"
        " (Resources/SOURCES.md in the source tree says how each data file was made).",
        "Files: *\nCopyright: The Nimbus authors\nLicense: Nimbus-unstated",
    ]
    packages = linked_packages(binary, checkouts)
    for files, licences, comment in data_paragraphs(sources):
        used += licences
        paragraphs.append(
            "Files: " + " ".join(f"usr/share/nimbus/{f}" for f in files) + "\n"
            "Copyright: the data's authors, as the comment says\n"
            f"License: {' and '.join(licences)}\n"
            "Comment:\n" + field(comment))
    paragraphs.append(
        "Files: usr/bin/nimbus\n"
        "Copyright: The Nimbus authors; Apple Inc. and the Swift project authors (the Swift runtime and\n"
        " Foundation, linked in statically); the authors of the Swift packages below\n"
        "License: Nimbus-unstated and Apache-2.0-with-Runtime-Library-Exception\n"
        "Comment: The binary holds the Swift standard library and Foundation (Apache-2.0 with the Runtime\n"
        " Library Exception), and these Swift packages, each under its own licence:\n"
        + "\n".join(f" {p}: {l} ({h})" for p, l, h in packages))
    icu = "Copyright (C) 2016 and later: Unicode, Inc. and others." in open(binary, "rb").read().decode("latin-1")
    if icu:
        paragraphs[-1] = paragraphs[-1].replace(
            "License: Nimbus-unstated and Apache-2.0-with-Runtime-Library-Exception",
            "License: Nimbus-unstated and Apache-2.0-with-Runtime-Library-Exception and Unicode-ICU")
        paragraphs[-1] += "\n ICU, in Foundation: Unicode-ICU (Copyright (C) 2016 and later: Unicode, Inc. and others)"
        used += ["Unicode-ICU"]
    used += ["Apache-2.0-with-Runtime-Library-Exception"]
    used += [l for _, l, _ in packages]
    for name in dict.fromkeys(used):
        paragraphs.append(f"License: {name}\n {TEXTS[name]}")
    print("\n\n".join(paragraphs))


main()

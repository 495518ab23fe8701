import Foundation
import Testing
import PropertyBased
import NimbusTerminal
import TestSupport
@testable import NimbusPresentation
@testable import NimbusUI

/// The film detail's cast: after the facts, a few lines of it until `c` shows it whole.
@MainActor @Suite struct MovieDetailCastTests {
    static let l10n = L10n.bundled(.en)

    static func cast(_ names: [String], expanded: Bool = false, known: Bool = true) -> MovieDetailState.Cast {
        MovieDetailState.Cast(label: "Cast", names: names, bestKnownFirst: known, expanded: expanded, unknown: "unknown")
    }

    /// Over random casts (names of random lengths and scripts) and widths: shortened, the cast wraps
    /// to at most `castLines` lines, shows a prefix of the names in order, and says how many it left
    /// out; shown whole (or when it fits) it has every name and says nothing more.
    @Test func aShortenedCastFitsItsLinesAndCountsWhatItLeavesOut() async {
        let words = ["Al", "Pacino", "Robert", "De Niro", "송강호", "香川照之", "Siobhan Fallon Hogan", "Ö", "William Acy \"Billy\" Roberson Jr"]
        await propertyCheck(count: PropertyCount.scaled(default: 200),
                            input: Gen.int(in: 1...160), Gen.int(in: 12...200), Gen.int(in: 0...Int.max)) { count, width, seed in
            let names = (0..<count).map { i in words[(i * 7 + seed % 9) % words.count] + " \(i)" }
            let short = MovieDetailScreen.castText(Self.cast(names), width: width, l10n: Self.l10n)
            let lines = TextWrap.lines(short, width: width)
            let whole = MovieDetailScreen.castText(Self.cast(names, expanded: true), width: width, l10n: Self.l10n)
            #expect(whole == "best known first: " + names.joined(separator: ", "))
            if short == whole { return }
            // "best known first: A 0, B 1… and 112 more (c: all)"
            let body = String(short.dropFirst("best known first: ".count))
            guard let cut = body.range(of: "… and ") else {
                Issue.record("no count of the names left out: \(short)")
                return
            }
            let shown = body[..<cut.lowerBound].components(separatedBy: ", ")
            // At least the best known name, even where the count alone takes more lines (12 columns).
            #expect(lines.count <= MovieDetailScreen.castLines || shown.count == 1, "\(lines)")
            #expect(Array(names.prefix(shown.count)) == shown, "a prefix, in order")
            #expect(body[cut.upperBound...] == "\(Self.l10n.number(names.count - shown.count)) more (c: all)")
        }
    }

    @Test func aFilmWithNoCastSaysUnknownAndCIsNotBound() {
        #expect(MovieDetailScreen.castText(Self.cast([]), width: 80, l10n: Self.l10n) == "unknown")
        let state = MovieDetailState(title: "Heat", phase: .loaded, fields: [], cast: Self.cast([]), inWishlist: false)
        #expect(MovieDetailScreen.keyMap(Self.l10n).event(for: "c", in: state) == nil)
        let cast = MovieDetailState(title: "Heat", phase: .loaded, fields: [], cast: Self.cast(["Al Pacino"]), inWishlist: false)
        #expect(MovieDetailScreen.keyMap(Self.l10n).event(for: "c", in: cast) == .castToggled)
    }

    /// TMDB's cast is in billing order and says nothing about fame.
    @Test func aBillingOrderCastIsJustTheNames() {
        #expect(MovieDetailScreen.castText(Self.cast(["Al Pacino", "Robert De Niro"], known: false), width: 80, l10n: Self.l10n)
                == "Al Pacino, Robert De Niro")
    }
}

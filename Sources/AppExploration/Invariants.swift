import Foundation
import NimbusApp
import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// What must hold after every action, whatever the user did: the frame fits the terminal and is
/// what the terminal shows; the selection is on a row; and every screen that shows user data shows
/// what is saved (rows, like and wishlist marks).
///
/// The content checks read the screen as a user does, so they run in English at sizes where the
/// screens lay out in full (40×10 and up); the structural ones run in every language and size.
@MainActor
public enum Invariants {
    /// What is checked, for reports.
    public nonisolated static let names = [
        "no trap", "frame fits the terminal", "terminal shows the frame", "a screen on top",
        "Wishlist rows = saved films", "Liked rows = liked cities", "one selected row", "list marks = saved",
        "[Liked] = liked", "a restart keeps what was saved", "d, f and w change exactly the row they were pressed on",
        "every key bound once in its scope, every hint bound",
    ]

    /// Whether `part` is in `text` (byte search: this runs on every row of every frame).
    static func has(_ text: String, _ part: String) -> Bool {
        text.utf8.firstRange(of: part.utf8) != nil
    }

    /// How many invariants the last `check` evaluated (the content ones run only where they can).
    public nonisolated(unsafe) private(set) static var lastCount = 0

    /// Each broken invariant, as a sentence; empty when all hold.
    public static func check(_ harness: AppHarness, english: Bool) -> [String] {
        var problems: [String] = []
        lastCount = 5
        let frame = harness.frame
        if frame.size != harness.size {
            problems.append("the frame is \(frame.size.cols)×\(frame.size.rows) on a \(harness.size.cols)×\(harness.size.rows) terminal")
        }
        // Cells first (cheap); the text when they differ, as wide glyphs may be kept differently.
        if harness.terminal.grid.allCells != frame.allCells, harness.terminal.screenText() != frame.text() {
            problems.append("the terminal does not show the frame drawn (the renderer lost cells)")
        }
        let lines = frame.lines()
        if let wide = lines.firstIndex(where: { DisplayWidth.of($0) > frame.size.cols }) {
            problems.append("row \(wide) is \(DisplayWidth.of(lines[wide])) columns wide on \(frame.size.cols)")
        }
        problems += harness.app.bindingProblems
        let place = harness.app.place
        if !(0..<6).contains(place.tab) || place.depth < 1 {
            problems.append("no screen on top (tab \(place.tab), depth \(place.depth))")
        }
        // A picker or a question drawn over the rows hides them: nothing to compare until it closes.
        guard english, harness.size.cols >= 40, harness.size.rows >= 10, !place.overlay, !place.asking, problems.isEmpty else {
            return problems
        }
        let body = Array(lines.dropFirst().dropLast())
        let showsData = place.depth == 1 || body.contains { has($0, "Population") }
        guard showsData else { return problems }
        lastCount += 3
        do {
            let wishlist = try harness.savedWishlist()
            let likes = try harness.savedLikes()
            let likedCities = likes.compactMap { harness.container.city(id: $0) }
            switch (place.tab, place.depth) {
            case (5, 1) where !body.contains(where: { has($0, "Delete every film") }):
                problems += checkWishlist(body, saved: wishlist, cols: harness.size.cols)
            case (2, 1):
                problems += checkLiked(body, saved: likedCities.map(\.name))
            case (1, 1):
                problems += checkToday(body, liked: likedCities.map(\.name), wishlist: wishlist)
            case (0, 1):
                problems += checkMarks(body, mark: "*", saved: likedCities.map(\.name), what: "liked city")
            case (4, 1):
                problems += checkMarks(body, mark: "♥", saved: wishlist, what: "saved film")
            default:
                break
            }
            if harness.size.cols >= 80 {
                problems += checkLikedLabel(body, liked: likedCities.map { WeatherFormatter.coordinates($0.coordinate) })
            }
        } catch {
            problems.append("the database could not be read: \(error)")
        }
        return problems
    }

    /// Rows of a list under its header: lines that start with the selection mark or two spaces.
    private static func rows(after header: Int, in body: [String]) -> [String] {
        // A row's text starts in column 2; the rows end at the first line that is not one (a map beside
        // the list goes on further right, a map below the list comes after a blank line).
        body.dropFirst(header + 1).prefix { line in
            (line.hasPrefix("›") || line.hasPrefix("  ")) && line.dropFirst(2).first.map { !$0.isWhitespace } == true
        }.map { $0 }
    }

    /// The Wishlist's title cell for a terminal `cols` wide (the screen's own `WishlistColumns`).
    static func wishlistTitleWidth(cols: Int) -> Int {
        max(0, WishlistColumns(width: cols).title - 1)
    }

    /// Whether `row` (from column 2) shows `title` exactly as a cell `width` wide draws it.
    static func shows(_ row: String, _ title: String, width: Int) -> Bool {
        String(row.dropFirst(2)).hasPrefix(DisplayWidth.truncate(DisplayWidth.sanitize(title), to: width))
    }

    /// Whether `row` (from column 2) shows `title`, cut or whole.
    static func shows(_ row: String, _ title: String) -> Bool {
        let text = String(row.dropFirst(2))
        let clean = DisplayWidth.sanitize(title)
        let head = String(clean.prefix(6))
        return text.hasPrefix(head) || (text.hasPrefix(String(head.prefix(1))) && has(text, "…") && clean.hasPrefix(
            String(text.prefix { $0 != "…" })))
    }

    /// Whether `shown` is a run of `saved`, in order, from some offset (the list may be scrolled);
    /// with a cell width, each row must show its title exactly as that cell draws it.
    private static func isWindow(_ shown: [String], of saved: [String], width: Int? = nil) -> Bool {
        guard !shown.isEmpty else { return saved.isEmpty }
        guard shown.count <= saved.count else { return false }
        return (0...(saved.count - shown.count)).contains { offset in
            shown.indices.allSatisfy { i in
                width.map { w in shows(shown[i], saved[offset + i], width: w) } ?? shows(shown[i], saved[offset + i])
            }
        }
    }

    private static func selectionProblems(_ rows: [String], count: Int, what: String) -> [String] {
        let selected = rows.filter { $0.hasPrefix("›") }.count
        if count > 0 && selected != 1 { return ["\(what): \(selected) rows are selected of \(count)"] }
        return []
    }

    /// Today: every liked city among the places, and the wishlist's newest films in the store's
    /// order, as far as the screen shows them (the list may scroll: only what is drawn is checked).
    static func checkToday(_ body: [String], liked: [String], wishlist: [String]) -> [String] {
        var problems: [String] = []
        if let header = body.firstIndex(where: { $0.hasPrefix(" Your places") }) {
            let section = body[(header + 1)...].prefix { !$0.isEmpty && !$0.allSatisfy(\.isWhitespace) }
            // Whole when the screen shows the section's end (the blank line after it).
            if header + 1 + section.count < body.count, section.count <= 1 + liked.count + 2 {
                for name in liked where !section.contains(where: { shows($0, name) }) {
                    problems.append("Today does not list the liked city \(name)")
                }
            }
        }
        if let title = body.firstIndex(where: { $0.hasPrefix("  Wishlist") }) {
            let shown = body[(title + 1)...]
                .prefix { ($0.hasPrefix("    ") || $0.hasPrefix("›   ")) && $0.dropFirst(4).first?.isWhitespace == false }
                .map { "  " + String($0.dropFirst(4)) }
            let expected = Array(wishlist.prefix(5))
            let room = title + 1 + shown.count < body.count // the screen goes on below the rows shown
            if (!shown.isEmpty && !isWindow(shown, of: expected)) || (shown.count < expected.count && room) {
                problems.append("Today's wishlist shows \(shown.map { $0.trimmingCharacters(in: .whitespaces) }); the newest saved are \(expected)")
            }
        } else if !wishlist.isEmpty, body.contains(where: { $0.hasPrefix(" Your films") }),
                  let films = body.firstIndex(where: { $0.hasPrefix(" Your films") }), films + 2 < body.count {
            problems.append("Today shows no wishlist; \(wishlist.count) films are saved")
        }
        return problems
    }

    static func checkWishlist(_ body: [String], saved: [String], cols: Int) -> [String] {
        var problems: [String] = []
        guard let summary = body.first, summary.hasPrefix("Saved films: ") else {
            return ["the Wishlist does not say how many films are saved: \(body.first ?? "")"]
        }
        let count = Int(summary.dropFirst("Saved films: ".count).prefix { $0.isNumber || $0 == "," }
            .filter(\.isNumber)) ?? -1
        if count != saved.count { problems.append("the Wishlist says \(count) films; \(saved.count) are saved") }
        if saved.isEmpty {
            if !has(body.joined(separator: " "), "Your wishlist is empty") {
                problems.append("no films are saved, and the Wishlist does not say so")
            }
            return problems
        }
        guard let header = body.firstIndex(where: { $0.hasPrefix("  Title") }) else {
            return problems + ["the Wishlist shows no list though \(saved.count) films are saved"]
        }
        let shown = rows(after: header, in: body)
        // The last row of the body may hold a message (from column 0) instead of a film.
        let message = body.last.map { !$0.hasPrefix(" ") && !$0.hasPrefix("›") } ?? false
        if !isWindow(shown, of: saved, width: wishlistTitleWidth(cols: cols)) {
            problems.append("the Wishlist rows \(shown.map { $0.trimmingCharacters(in: .whitespaces) }) are not the saved films \(saved)")
        }
        if shown.count < min(saved.count, body.count - header - 1 - (message ? 1 : 0)) {
            problems.append("the Wishlist shows \(shown.count) rows with room for more of \(saved.count)")
        }
        return problems + selectionProblems(shown, count: saved.count, what: "Wishlist")
    }

    static func checkLiked(_ body: [String], saved: [String]) -> [String] {
        let text = body.joined(separator: " ")
        if saved.isEmpty {
            return has(text, "No liked cities yet") ? [] : ["no city is liked, and the Liked tab does not say so"]
        }
        if has(text, "No liked cities yet") { return ["the Liked tab says none are liked; \(saved.count) are"] }
        guard let header = body.firstIndex(where: { $0.hasPrefix("  City") }) else {
            return ["the Liked tab shows no list though \(saved.count) cities are liked"]
        }
        let shown = rows(after: header, in: body)
        var problems: [String] = []
        if !isWindow(shown, of: saved) {
            problems.append("the Liked rows \(shown.map { $0.trimmingCharacters(in: .whitespaces) }) are not the liked cities \(saved)")
        }
        if shown.count < min(saved.count, body.count - header - 1) {
            problems.append("the Liked tab shows \(shown.count) rows with room for more of \(saved.count)")
        }
        return problems + selectionProblems(shown, count: saved.count, what: "Liked")
    }

    /// Every row marked with `mark` in column 1 shows something saved.
    static func checkMarks(_ body: [String], mark: Character, saved: [String], what: String) -> [String] {
        let marked = body.filter { $0.dropFirst().first == mark && ($0.hasPrefix("›") || $0.hasPrefix(" ")) }
        if marked.count > 0 && saved.isEmpty { return ["\(marked.count) rows are marked as \(what)s; none is saved"] }
        return marked.compactMap { row in
            saved.contains { shows(row, $0) } ? nil : "a row is marked as a \(what) but is not saved: \(row)"
        }
    }

    /// A weather screen says "[Liked]" exactly when its city is liked (told apart by its coordinates).
    static func checkLikedLabel(_ body: [String], liked coordinates: [String]) -> [String] {
        guard let row = body.firstIndex(where: { has($0, "°") && has($0, "Population") }), row > 0 else { return [] }
        let place = body[row], title = body[row - 1]
        let isLiked = coordinates.contains { has(place, $0) }
        let says = has(title, "[Liked]")
        if says != isLiked {
            return [says ? "a weather screen says [Liked] for a city that is not liked" : "a liked city's weather screen does not say [Liked]"]
        }
        return []
    }
}

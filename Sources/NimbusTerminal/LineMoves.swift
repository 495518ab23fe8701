/// Rows `top...bottom` of the screen scrolled `by` rows, down when positive and up when negative,
/// as a terminal scrolls a region: the rows scrolled out of it are gone, the rows scrolled in are
/// blank. `FrameEncoder.moveLines` makes it with the terminal's own capabilities.
public struct LineMove: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let top: Int
    public let bottom: Int
    public let by: Int

    public init(top: Int, bottom: Int, by: Int) {
        self.top = top
        self.bottom = bottom
        self.by = by
    }

    public var description: String { "rows \(top)...\(bottom) by \(by)" }
}

/// What drawing costs on one terminal, in bytes: `LineMoves` weighs moving the rows a terminal
/// already shows against drawing them again.
public protocol DrawingCosts: AnyObject {
    /// Putting the cursor at column `x` of row `y`, from column `from` of that row when known.
    func bytesToMove(toColumn x: Int, row y: Int, fromColumn from: Int?) -> Int
    /// Switching to `style` (from any other).
    func bytes(switchingTo style: Style) -> Int
    /// Making `move` on a screen of `rows` rows; nil when the terminal cannot.
    func bytes(making move: LineMove, rows: Int) -> Int?
}

/// Makes a scrolled frame cost its new lines, not a screen. Finds the rows of the new frame that
/// the terminal already shows in other rows (matched by a hash of their cells, at the distance most
/// rows moved by; see `matchedPairs`), keeps the largest set of them that can keep
/// their order (the longest increasing subsequence of their old row numbers), and scrolls a region
/// of the screen for each stretch of them that moves by the same number of rows, where that takes
/// fewer bytes than drawing the region's rows again (an estimate from the terminal's sequences;
/// `Renderer` then has the backend price the whole frame both ways exactly, where it can). The
/// frame is then diffed against the terminal's screen after the moves, cell by cell as before.
///
/// A region spans only the rows its stretch moves through (its first row's old and new places to
/// its last row's), so rows that stay where they are (the tab bar, a list's header, the status bar)
/// are never in one: the scroll regions the layout allows are read off the frames, not declared by
/// the screens. A row is compared whole, as a terminal scrolls whole rows: a box narrower than the
/// screen over other text (the help, the warnings on a wide screen) or a list beside a panel that
/// follows its selection (the Liked map) does not match, and is drawn cell by cell.
public enum LineMoves {
    /// Moves, in the order to make them, and the bytes they are estimated to save.
    public struct Plan {
        public var moves: [LineMove] = []
        public var estimatedSaving = 0
        /// The new frame's row hashes, for the next plan to start from (`shownRowHashes`).
        public var frameRowHashes: [UInt64] = []
    }

    /// A saving of at least this many bytes is certain: the estimate has been seen off by at most a
    /// few bytes either way (a style carried over from the row before), so such a plan needs no exact price.
    public static let certainSaving = 64

    /// The moves, in the order to make them, that turn `shown` (what the terminal shows) into a
    /// screen closer to `frame` in fewer bytes than drawing; none when none is worth it.
    /// `shownRowHashes`: the last plan's `frameRowHashes` when `shown` is that plan's frame (each
    /// frame's rows are then hashed once).
    public static func plan(from shown: ScreenBuffer, to frame: ScreenBuffer, costs: any DrawingCosts,
                            shownRowHashes: [UInt64]? = nil) -> Plan {
        let size = frame.size
        guard shown.size == size, size.rows > 1, size.cols > 0 else { return Plan() }
        let old = shown.allCells, new = frame.allCells
        var plan = Plan()
        let stretches = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                let oldHashes = shownRowHashes?.count == size.rows ? shownRowHashes! : rowHashes(old, rows: size.rows, cols: size.cols)
                plan.frameRowHashes = rowHashes(new, rows: size.rows, cols: size.cols)
                return movingStretches(old: old, new: new, oldHashes: oldHashes, newHashes: plan.frameRowHashes,
                                       rows: size.rows, cols: size.cols)
            }
        }
        guard !stretches.isEmpty else { return plan }
        let chosen = choose(stretches, shown: shown, frame: new, costs: costs)
        plan.moves = chosen.moves
        plan.estimatedSaving = chosen.estimatedSaving
        return plan
    }

    /// Rows of the new frame at `new...`, shown at `new - by` before, in one stretch.
    struct Stretch {
        var first: Int
        var last: Int
        var by: Int
        /// Kept rows in it (a stretch of one row, a name met again elsewhere in a new list, is not
        /// worth a region's move, and not worth pricing).
        var rows = 1

        /// The region that moving the stretch scrolls: from its first row's upper place to its
        /// last row's lower one.
        var move: LineMove {
            by < 0 ? LineMove(top: first, bottom: last - by, by: by) : LineMove(top: first - by, bottom: last, by: by)
        }
    }

    // MARK: Matching

    /// The stretches of kept rows that move (`by` ≠ 0), in new-row order.
    static func movingStretches(old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, oldHashes: [UInt64],
                                newHashes: [UInt64], rows: Int, cols: Int) -> [Stretch] {
        let blank = blankRowHash(cols: cols)
        guard someRowMoved(oldHashes, newHashes, blank: blank) else { return [] }
        var pairs = matchedPairs(oldHashes, newHashes, blank: blank)
        guard pairs.contains(where: { $0.new != $0.old }) else { return [] }
        pairs.removeAll { !rowsEqual(old, $0.old, new, $0.new, cols: cols) } // a hash collision
        var oldOfNew = [Int](repeating: -1, count: rows)
        var oldTaken = [Bool](repeating: false, count: rows)
        for pair in keptInOrder(pairs) {
            oldOfNew[pair.new] = pair.old
            oldTaken[pair.old] = true
        }
        grow(&oldOfNew, &oldTaken, old: old, new: new, oldHashes: oldHashes, newHashes: newHashes, cols: cols)
        var stretches: [Stretch] = []
        // Kept rows next to each other in the new frame's order, at the same distance, move together.
        for y in 0..<rows where oldOfNew[y] >= 0 {
            let by = y - oldOfNew[y]
            if let last = stretches.last, last.by == by {
                stretches[stretches.count - 1].last = y
                stretches[stretches.count - 1].rows += 1
            } else {
                stretches.append(Stretch(first: y, last: y, by: by))
            }
        }
        return stretches.filter { $0.by != 0 && $0.rows > 1 }
    }

    /// Whether some row of the new frame that is not blank has the hash of a row shown elsewhere:
    /// without one, every match is a row that stays where it is, and nothing is worth moving. A
    /// keystroke's frame usually has none, and this is a few hundred comparisons instead of sorting
    /// both frames' rows (for screens up to `quickCheckRows` high; above that the sort decides).
    static func someRowMoved(_ oldHashes: [UInt64], _ newHashes: [UInt64], blank: UInt64) -> Bool {
        let rows = min(oldHashes.count, newHashes.count)
        guard rows <= quickCheckRows else { return true }
        for y in 0..<rows where newHashes[y] != blank {
            let h = newHashes[y]
            for x in 0..<rows where x != y && oldHashes[x] == h { return true }
        }
        return false
    }

    static let quickCheckRows = 128

    /// A hash of each row's cells: glyph, width and style. (Rows it calls equal are compared cell by
    /// cell before they are moved.)
    static func rowHashes(_ cells: UnsafeBufferPointer<Cell>, rows: Int, cols: Int) -> [UInt64] {
        var hashes = [UInt64](repeating: 0, count: rows)
        guard let base = cells.baseAddress else { return hashes }
        for y in 0..<rows {
            var h = hashSeed
            var cell = base + y * cols
            for _ in 0..<cols {
                mix(cell.pointee, into: &h)
                cell += 1
            }
            hashes[y] = h ^ h >> 29
        }
        return hashes
    }

    /// The hash of a row of `cols` blanks.
    static func blankRowHash(cols: Int) -> UInt64 {
        var h = hashSeed
        for _ in 0..<cols { mix(.blank, into: &h) }
        return h ^ h >> 29
    }

    private static let hashSeed: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    private static func mix(_ cell: Cell, into h: inout UInt64) {
        let bits = UInt64(cell.glyph.raw) << 32 | UInt64(cell.style.bits | UInt32(cell.width) << 24)
        h = (h ^ bits) &* 0x0000_0100_0000_01B3
    }

    static func rowsEqual(_ a: UnsafeBufferPointer<Cell>, _ ya: Int, _ b: UnsafeBufferPointer<Cell>, _ yb: Int, cols: Int) -> Bool {
        var x = 0
        while x < cols {
            if a[ya * cols + x] != b[yb * cols + x] { return false }
            x += 1
        }
        return true
    }

    /// Rows matched between the frames, as (new row, old row), in new-row order. Each distance a
    /// row could have moved by (from where its cells are in the old frame) gets a vote; a row is
    /// matched at the most voted distance where the old frame has it. A row that occurs once in each
    /// frame (as ncurses' `hashmap.c` matches them) votes once and is matched where it was; a line of
    /// a text that repeats (a warning's paragraph twice on screen) goes with the text's distance,
    /// not with its other copy. Blank rows neither vote nor match alone: `grow` moves them with
    /// their neighbours.
    static func matchedPairs(_ oldHashes: [UInt64], _ newHashes: [UInt64], blank: UInt64) -> [(new: Int, old: Int)] {
        let rows = oldHashes.count
        // The rows of each frame sorted by hash (blank ones left out), walked side by side: equal
        // runs are the rows with the same cells in both.
        let old = (0..<rows).filter { oldHashes[$0] != blank }.sorted { (oldHashes[$0], $0) < (oldHashes[$1], $1) }
        let new = (0..<rows).filter { newHashes[$0] != blank }.sorted { (newHashes[$0], $0) < (newHashes[$1], $1) }
        var votes = [Int](repeating: 0, count: 2 * rows + 1) // by distance + rows
        var candidates: [(newRows: ArraySlice<Int>, oldRows: ArraySlice<Int>)] = []
        var i = 0, j = 0
        while i < old.count, j < new.count {
            let h = oldHashes[old[i]], k = newHashes[new[j]]
            if h < k { i += 1; continue }
            if k < h { j += 1; continue }
            var i2 = i, j2 = j
            while i2 < old.count, oldHashes[old[i2]] == h { i2 += 1 }
            while j2 < new.count, newHashes[new[j2]] == h { j2 += 1 }
            // A rule or filler repeated all over votes for nothing.
            if (i2 - i) * (j2 - j) <= 16 {
                for n in new[j..<j2] { for o in old[i..<i2] { votes[n - o + rows] += 1 } }
                candidates.append((new[j..<j2], old[i..<i2]))
            }
            i = i2
            j = j2
        }
        guard !candidates.isEmpty else { return [] }
        let distances = votes.indices.filter { votes[$0] > 0 }
            .sorted { votes[$0] != votes[$1] ? votes[$0] > votes[$1] : abs($0 - rows) < abs($1 - rows) }
            .map { $0 - rows }
        var taken = [Bool](repeating: false, count: rows)
        var pairs: [(new: Int, old: Int)] = []
        for (newRows, oldRows) in candidates {
            for y in newRows {
                for d in distances where oldRows.contains(y - d) && !taken[y - d] {
                    taken[y - d] = true
                    pairs.append((y, y - d))
                    break
                }
            }
        }
        return pairs.sorted { $0.new < $1.new }
    }

    /// The longest subsequence of `pairs` (in new-row order) whose old rows increase: the most
    /// rows that can stay on the terminal, in order, after scrolling.
    static func keptInOrder(_ pairs: [(new: Int, old: Int)]) -> [(new: Int, old: Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []            // tails[k]: index of the pair ending the best run of length k + 1
        var previous = [Int](repeating: -1, count: pairs.count)
        for i in pairs.indices {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[tails[mid]].old < pairs[i].old { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out: [(new: Int, old: Int)] = []
        var i = tails.last!
        while i >= 0 {
            out.append(pairs[i])
            i = previous[i]
        }
        return out.reversed()
    }

    /// Widens each moving kept row into its neighbours that are equal at the same distance (rows
    /// that `matchedPairs` leaves out: blank ones), keeping the old rows in order.
    static func grow(_ oldOfNew: inout [Int], _ oldTaken: inout [Bool], old: UnsafeBufferPointer<Cell>,
                     new: UnsafeBufferPointer<Cell>, oldHashes: [UInt64], newHashes: [UInt64], cols: Int) {
        let rows = oldOfNew.count
        func take(_ y: Int, _ from: Int) -> Bool {
            guard y >= 0, y < rows, from >= 0, from < rows, oldOfNew[y] < 0, !oldTaken[from],
                  newHashes[y] == oldHashes[from], rowsEqual(old, from, new, y, cols: cols) else { return false }
            oldOfNew[y] = from
            oldTaken[from] = true
            return true
        }
        for y in 0..<rows where oldOfNew[y] >= 0 && oldOfNew[y] != y {
            let by = y - oldOfNew[y]
            var up = y - 1
            while take(up, up - by) { up -= 1 }
        }
        for y in (0..<rows).reversed() where oldOfNew[y] >= 0 && oldOfNew[y] != y {
            let by = y - oldOfNew[y]
            var down = y + 1
            while take(down, down - by) { down += 1 }
        }
    }

    // MARK: Choosing

    /// The stretches whose move saves bytes, in the order that makes them: upward ones from the
    /// top, then downward ones from the bottom, each judged on the screen the ones before it left
    /// (no move then scrolls away a row another has put in place).
    static func choose(_ stretches: [Stretch], shown: ScreenBuffer, frame: [Cell], costs: any DrawingCosts) -> Plan {
        let ordered = stretches.filter { $0.by < 0 } + stretches.filter { $0.by > 0 }.reversed()
        let size = shown.size
        var screen = shown
        var plan = Plan()
        for stretch in ordered {
            let move = stretch.move
            guard let moveBytes = costs.bytes(making: move, rows: size.rows) else { continue }
            // After the move first (its kept rows cost nothing); then the rows as they are, priced
            // only until they are certainly dearer: past that, what they cost decides nothing (the
            // saving counts as at least `certainSaving`, which is all the renderer asks of it).
            let (before, after) = screen.allCells.withUnsafeBufferPointer { screen in
                frame.withUnsafeBufferPointer { frame in
                    let after = regionCost(move, moved: true, screen: screen, frame: frame, cols: size.cols, costs: costs)
                    let before = regionCost(move, moved: false, screen: screen, frame: frame, cols: size.cols, costs: costs,
                                            over: moveBytes + after + certainSaving)
                    return (before, after)
                }
            }
            guard moveBytes + after < before else { continue }
            plan.moves.append(move)
            plan.estimatedSaving += before - after - moveBytes
            screen.scroll(move)
        }
        return plan
    }

    /// Bytes to draw the frame's rows in `move`'s region over the screen as it is, or after `move`;
    /// counting stops at the first row that takes the total past `limit` (what it returns then is
    /// only known to be over it).
    static func regionCost(_ move: LineMove, moved: Bool, screen: UnsafeBufferPointer<Cell>, frame: UnsafeBufferPointer<Cell>,
                           cols: Int, costs: any DrawingCosts, over limit: Int = .max) -> Int {
        var style: Style?
        var total = 0
        for y in move.top...move.bottom {
            let from = moved ? y - move.by : y
            let source = from >= move.top && from <= move.bottom ? from : nil
            total += rowCost(y: y, shownRow: source, screen: screen, frame: frame, cols: cols, style: &style, costs: costs)
            if total > limit { return total }
        }
        return total
    }

    /// Bytes `FrameEncoder` writes to draw row `y` of the frame over row `shownRow` of the screen
    /// (nil: a blank row): a cursor move (or the gap's cells again) where a run of changed cells
    /// starts, a style where it changes, the glyphs.
    static func rowCost(y: Int, shownRow: Int?, screen: UnsafeBufferPointer<Cell>, frame: UnsafeBufferPointer<Cell>,
                        cols: Int, style: inout Style?, costs: any DrawingCosts) -> Int {
        var bytes = 0
        var position: Int? = nil
        let row = y * cols
        for x in 0..<cols {
            let cell = frame[row + x]
            let was = shownRow.map { screen[$0 * cols + x] } ?? .blank
            guard cell.width > 0, cell != was else { continue }
            if position != x {
                let move = costs.bytesToMove(toColumn: x, row: y, fromColumn: position)
                // A short gap is crossed by writing its cells again (`FrameEncoder.draw`).
                if let from = position, from < x, x - from < move,
                   (from..<x).allSatisfy({ FrameEncoder.rewritable(frame[row + $0], in: style) }) {
                    bytes += x - from
                } else {
                    bytes += move
                }
            }
            if style != cell.style {
                bytes += costs.bytes(switchingTo: cell.style)
                style = cell.style
            }
            let next = x + Int(cell.width)
            if let scalar = cell.glyph.scalar {
                bytes += scalar.value < 0x80 ? 1 : scalar.value < 0x800 ? 2 : scalar.value < 0x10000 ? 3 : 4
                position = next < cols && FrameEncoder.widthIsCertain(scalar.value) ? next : nil
            } else {
                bytes += cell.text.utf8.count
                position = nil
            }
        }
        return bytes
    }
}

/// Selection and scroll position of a list.
public struct ListState: Equatable, Sendable {
    public var count: Int
    public var selection: Int
    /// Index of the first visible row.
    public var offset: Int
    /// Where the rows were last drawn, in absolute screen cells (for clicks and the wheel).
    public var drawnArea: Rect?
    /// Rows the view moves at least when the selection leaves it (vim's 'scrolljump'). 1 moves it a row,
    /// which a terminal does by moving its lines; a list whose lines it cannot move (a map beside
    /// them) moves by more, so a held key redraws the rows once in that many keys, not at every key.
    public var scrollJump = 1

    public init(count: Int = 0) {
        self.count = max(0, count)
        self.selection = 0
        self.offset = 0
    }

    /// Changes the item count, clamping selection and offset.
    public mutating func setCount(_ n: Int) {
        count = max(0, n)
        selection = Self.clamp(selection, count)
        offset = Self.clamp(offset, count)
    }

    public mutating func select(_ i: Int) {
        selection = Self.clamp(i, count)
    }

    /// Moves the selection for up/down/k/j, page keys and home/end/g/G; returns true when the key is a list key.
    public mutating func handle(_ key: Key, pageSize: Int) -> Bool {
        let page = max(1, pageSize)
        switch key {
        case .up, .char("k"): select(selection - 1)
        case .down, .char("j"): select(selection + 1)
        case .pageUp: select(selection - page)
        case .pageDown: select(selection + page)
        case .home, .char("g"): select(0)
        case .end, .char("G"): select(count - 1)
        default: return false
        }
        scrollToSelection(pageSize: page)
        return true
    }

    /// A key for a list whose selection its view model keeps: the selection `key` moves to (nil when
    /// it is not a list key); the offset that shows it is kept here until the state comes back.
    public mutating func move(_ key: Key, pageSize: Int) -> Int? {
        var moved = self
        guard moved.handle(key, pageSize: pageSize) else { return nil }
        offset = moved.offset
        return moved.selection
    }

    /// Adjusts `offset` so the selection is within the `pageSize` visible rows and no rows are wasted
    /// at the end, moving the view by at least `scrollJump` rows (at most a page) when it moves.
    public mutating func scrollToSelection(pageSize: Int) {
        let page = max(1, pageSize)
        let jump = min(max(1, scrollJump), page)
        if selection < offset { offset = min(selection, offset - jump) }
        if selection >= offset + page { offset = max(selection - page + 1, offset + jump) }
        offset = min(offset, max(0, count - page))
        offset = max(0, offset)
    }

    /// What a click or the wheel did to the list.
    public enum PointerResult: Equatable, Sendable {
        /// Not on the list, or nothing to do.
        case ignored
        /// The selection moved (a click on another row, or the wheel).
        case moved
        /// A double click, or a click on the row already selected: open it, as Enter does.
        case open(Int)
    }

    /// Rows the wheel moves per notch.
    public static let wheelStep = 3

    /// A click selects the row under it (a double click, or a click on the selected row, opens it);
    /// the wheel over the list moves the selection by `wheelStep` rows a notch.
    public mutating func handle(_ pointer: Pointer) -> PointerResult {
        guard let area = drawnArea, area.contains(pointer.screen), count > 0 else { return .ignored }
        switch pointer.action {
        case .click(let clicks):
            let index = offset + pointer.screen.y - area.y
            guard index >= 0, index < count else { return .ignored }
            if clicks >= 2 || index == selection {
                select(index)
                return .open(index)
            }
            select(index)
            return .moved
        case .wheel(let notches):
            let before = selection
            select(selection + notches * Self.wheelStep)
            scrollToSelection(pageSize: area.height)
            return selection == before ? .ignored : .moved
        case .drag:
            return .ignored
        }
    }

    /// What a click or the wheel asks of a list whose selection its view model keeps.
    public enum PointerMove: Equatable, Sendable {
        case ignored
        /// Select this row (a click on another row, or the wheel).
        case select(Int)
        /// Open this row (a double click, or a click on the row already selected).
        case open(Int)
    }

    /// `move(_:pageSize:)` for the pointer: what `handle(_:)` would do, keeping only the offset
    /// that shows the new selection until the state comes back.
    public mutating func move(_ pointer: Pointer) -> PointerMove {
        var moved = self
        switch moved.handle(pointer) {
        case .ignored: return .ignored
        case .moved:
            offset = moved.offset
            return .select(moved.selection)
        case .open(let row): return .open(row)
        }
    }

    private static func clamp(_ i: Int, _ count: Int) -> Int {
        count == 0 ? 0 : min(max(i, 0), count - 1)
    }
}

/// Draws the visible rows of a list.
public struct ListView {
    /// Calls `row(index, rowPainter, isSelected)` for each visible row; the selected row is filled with `selectedStyle` first.
    public static func draw(_ p: Painter, state: inout ListState, selectedStyle: Style,
                            row: (Int, Painter, Bool) -> Void) {
        state.setCount(state.count)
        state.drawnArea = p.bounds
        guard p.height > 0 else { return }
        state.scrollToSelection(pageSize: p.height)
        let end = min(state.count, state.offset + p.height)
        guard state.offset < end else { return }
        for i in state.offset..<end {
            let rp = p.sub(Rect(x: 0, y: i - state.offset, width: p.width, height: 1))
            let selected = i == state.selection
            if selected { rp.fill(style: selectedStyle) }
            row(i, rp, selected)
        }
    }
}

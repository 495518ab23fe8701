/// Where the keys and the wheel move a scrolled text (the help, a warning's text, a film's details):
/// a line, a page, the top or the bottom, never past either end.
public struct TextScroll: Equatable, Sendable {
    /// The first line shown.
    public var line: Int
    /// The lines one page moves (the visible height less one, so a line of context stays).
    public var page: Int
    /// The last first line that still fills the view.
    public var last: Int

    public init(line: Int, page: Int, last: Int) {
        self.line = line
        self.page = max(1, page)
        self.last = max(0, last)
    }

    /// The first line after `key`, or nil for a key that does not scroll. With `letters`, also the
    /// pager's letters: `j k` a line, `Space` a page, `g G` the ends (not where letters are text,
    /// as in the help, whose letters filter it).
    public func after(_ key: Key, letters: Bool = true) -> Int? {
        let now = min(max(0, line), last)
        let to: Int
        switch key {
        case .up: to = now - 1
        case .down: to = now + 1
        case .pageUp: to = now - page
        case .pageDown: to = now + page
        case .home: to = 0
        case .end: to = last
        case .char("k") where letters: to = now - 1
        case .char("j") where letters: to = now + 1
        case .char(" ") where letters: to = now + page
        case .char("g") where letters: to = 0
        case .char("G") where letters: to = last
        default: return nil
        }
        return min(max(0, to), last)
    }

    /// The first line after `notches` of the wheel (up is negative), `ListState.wheelStep` lines a notch.
    public func afterWheel(_ notches: Int) -> Int {
        min(max(0, line + notches * ListState.wheelStep), last)
    }
}

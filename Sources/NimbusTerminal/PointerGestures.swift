import Foundation

/// Turns the terminal's mouse reports into gestures: left presses counted into single and double
/// clicks, held-button motion into drag steps, wheel notches into scrolls. Releases and other
/// buttons make no gesture.
///
/// A value: the app keeps one and feeds it every report with the time it came.
public struct PointerGestures: Equatable, Sendable {
    /// Two presses on one cell within this time are a double click.
    public static let doubleClickInterval: TimeInterval = 0.4

    /// The last left press: where, when, and whether it was already the second of a pair.
    private var lastPress: (at: Point, time: Date, count: Int)?
    /// Where the held button last was (for drags); nil when no button is held.
    private var dragAt: Point?

    public init() {}

    public static func == (a: PointerGestures, b: PointerGestures) -> Bool {
        a.dragAt == b.dragAt && a.lastPress?.at == b.lastPress?.at && a.lastPress?.time == b.lastPress?.time
            && a.lastPress?.count == b.lastPress?.count
    }

    /// The gesture `event` makes at `time`, at the cell it names; nil for a release or a report that
    /// is no gesture (another button, motion without a held button, a drag that did not move).
    public mutating func gesture(_ event: MouseEvent, at time: Date) -> (action: Pointer.Action, at: Point)? {
        let at = Point(x: event.x, y: event.y)
        switch (event.action, event.button) {
        case (.press, .left):
            var count = 1
            if let last = lastPress, last.at == at, time.timeIntervalSince(last.time) <= Self.doubleClickInterval,
               time >= last.time, last.count == 1 {
                count = 2
            }
            lastPress = (at, time, count)
            dragAt = at
            return (.click(count: count), at)
        case (.drag, .left):
            guard let from = dragAt, from != at else { return nil }
            dragAt = at
            return (.drag(dx: at.x - from.x, dy: at.y - from.y), at)
        case (.release, _):
            dragAt = nil
            return nil
        case (.wheelUp, _):
            return (.wheel(-1), at)
        case (.wheelDown, _):
            return (.wheel(1), at)
        default:
            return nil
        }
    }
}

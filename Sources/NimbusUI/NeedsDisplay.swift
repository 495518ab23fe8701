/// The one "needs display" flag of the app: screens, the tab navigator and the app coordinator set
/// it; the app loop reads and clears it each turn and draws a frame when it was set.
///
/// No closures relay a redraw from a screen up to the loop: whoever changes what is on screen sets
/// the flag, and the loop notices.
public final class NeedsDisplay {
    /// Set when the frame must be drawn again.
    public private(set) var isSet = false
    /// Set when the next frame must clear the terminal and repaint every cell (Ctrl-L).
    public private(set) var needsFullRedraw = false

    public init() {}

    /// Asks for a frame.
    public func set() { isSet = true }

    /// Asks for a frame that repaints the whole terminal.
    public func setFullRedraw() {
        isSet = true
        needsFullRedraw = true
    }

    /// Clears the flag; returns what was asked for since the last call.
    public func take() -> (display: Bool, fullRedraw: Bool) {
        defer { isSet = false; needsFullRedraw = false }
        return (isSet, needsFullRedraw)
    }
}

/// Owns the frame being drawn; painters made from it share the buffer.
public final class Canvas {
    public var buffer: ScreenBuffer

    public init(size: Size) {
        buffer = ScreenBuffer(size: size)
    }

    /// A painter covering the whole canvas.
    public func painter() -> Painter {
        Painter(canvas: self, origin: Point(x: 0, y: 0), bounds: buffer.bounds)
    }
}

/// Draws into a `Canvas` with coordinates relative to its rectangle, clipped to `bounds`.
public struct Painter {
    public let canvas: Canvas
    /// Absolute position of relative (0, 0); differs from `bounds` only when a sub-rect was clipped on the left or top.
    public let origin: Point
    /// Absolute clip rectangle on the canvas.
    public let bounds: Rect

    init(canvas: Canvas, origin: Point, bounds: Rect) {
        self.canvas = canvas
        self.origin = origin
        self.bounds = bounds
    }

    public var width: Int { bounds.width }
    public var height: Int { bounds.height }

    /// A painter for `r` (relative to this painter), clipped to this painter's bounds.
    public func sub(_ r: Rect) -> Painter {
        let abs = Rect(x: origin.x + r.x, y: origin.y + r.y, width: max(0, r.width), height: max(0, r.height))
        return Painter(canvas: canvas, origin: Point(x: abs.x, y: abs.y), bounds: abs.intersection(bounds))
    }

    /// Writes `s` at relative (x, y); returns the columns advanced (see `ScreenBuffer.put`).
    @discardableResult
    public func text(_ s: String, x: Int, y: Int, style: Style = .plain) -> Int {
        canvas.buffer.put(s, x: origin.x + x, y: origin.y + y, style: style, clip: bounds)
    }

    /// Fills the whole painter with spaces in `style`.
    public func fill(style: Style = .plain) {
        canvas.buffer.fill(bounds, with: " ", style: style)
    }

    /// Fills relative rectangle `r` with spaces in `style`.
    public func fill(_ r: Rect, style: Style = .plain) {
        let abs = Rect(x: origin.x + r.x, y: origin.y + r.y, width: r.width, height: r.height)
        canvas.buffer.fill(abs.intersection(bounds), with: " ", style: style)
    }

    /// Places the hardware cursor at relative (x, y) when that cell is inside the bounds.
    public func setCursor(x: Int, y: Int) {
        let p = Point(x: origin.x + x, y: origin.y + y)
        if bounds.contains(p) { canvas.buffer.cursor = p }
    }

    public func hideCursor() {
        canvas.buffer.cursor = nil
    }
}

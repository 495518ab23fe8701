/// A size in terminal cells.
public struct Size: Equatable, Hashable, Sendable {
    public var cols: Int
    public var rows: Int
    public init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
    }
}

/// A cell position; `x` is the column, `y` the row.
public struct Point: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A rectangle of cells. Width and height are never negative once normalised by `intersection`.
public struct Rect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(size: Size) {
        self.init(x: 0, y: 0, width: size.cols, height: size.rows)
    }

    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Shrinks the rectangle by `n` cells on every side; never below zero size.
    public func inset(by n: Int) -> Rect {
        Rect(x: x + n, y: y + n, width: max(0, width - 2 * n), height: max(0, height - 2 * n))
    }

    /// The overlap of two rectangles; an empty overlap has zero width and height.
    public func intersection(_ o: Rect) -> Rect {
        let nx = max(x, o.x)
        let ny = max(y, o.y)
        let mx = min(maxX, o.maxX)
        let my = min(maxY, o.maxY)
        if mx <= nx || my <= ny {
            return Rect(x: nx, y: ny, width: 0, height: 0)
        }
        return Rect(x: nx, y: ny, width: mx - nx, height: my - ny)
    }

    public func contains(_ p: Point) -> Bool {
        p.x >= x && p.x < maxX && p.y >= y && p.y < maxY
    }
}

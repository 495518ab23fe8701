import Foundation

/// A list loaded page by page, kept as the pages it came in: appending a page copies none of the
/// elements before it, even when an earlier value of the list is still held (the state last shown).
///
/// The film list holds thousands of films after a long scroll through the catalogue; a plain array
/// shared with the previous state was copied whole at every page.
public struct PagedList<Element>: RandomAccessCollection, ExpressibleByArrayLiteral {
    private var chunks: [[Element]] = []
    /// The index of each chunk's first element.
    private var starts: [Int] = []
    public private(set) var count = 0

    public init() {}

    public init(_ elements: [Element]) {
        append(contentsOf: elements)
    }

    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index out of range")
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return chunks[low][position - starts[low]]
    }

    /// Adds a page at the end.
    public mutating func append(contentsOf page: [Element]) {
        guard !page.isEmpty else { return }
        chunks.append(page)
        starts.append(count)
        count += page.count
    }
}

extension PagedList: Equatable where Element: Equatable {
    /// Element by element; lists that share their pages compare without looking at the elements.
    public static func == (lhs: PagedList, rhs: PagedList) -> Bool {
        lhs.count == rhs.count && (lhs.chunks == rhs.chunks || lhs.elementsEqual(rhs))
    }
}

extension PagedList: Sendable where Element: Sendable {}

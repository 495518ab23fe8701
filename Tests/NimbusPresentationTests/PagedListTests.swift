import XCTest
@testable import NimbusPresentation

/// `PagedList` reads as the array of its pages joined, however they were cut.
final class PagedListTests: XCTestCase {
    func testEveryCutReadsAndComparesAsTheJoinedArray() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var list = PagedList<Int>()
            var array: [Int] = []
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let page = (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0...9, using: &generator) }
                list.append(contentsOf: page)
                array += page
            }
            XCTAssertEqual(Array(list), array)
            XCTAssertEqual(list.count, array.count)
            for i in array.indices { XCTAssertEqual(list[i], array[i]) }
            XCTAssertEqual(list, PagedList(array), "cut differently, equal")
            var other = PagedList(array)
            other.append(contentsOf: [1])
            XCTAssertNotEqual(list, other)
        }
        XCTAssertEqual(PagedList([1, 2]), [1, 2])
        XCTAssertNotEqual(PagedList([1, 2]), [2, 1])
        XCTAssertTrue(PagedList<Int>().isEmpty)
    }
}

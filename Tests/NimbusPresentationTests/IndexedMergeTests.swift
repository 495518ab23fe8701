import XCTest
import OpenCombineShim
@testable import NimbusPresentation

private struct Boom: Error, Equatable { let id: Int }

final class IndexedMergeTests: XCTestCase {
    private var received: [Indexed<String, Boom>] = []
    private var finished = false
    private var cancellable: AnyCancellable?

    private func subscribe(_ subjects: [PassthroughSubject<String, Boom>]) {
        cancellable = indexedMerge(subjects.map { $0.eraseToAnyPublisher() })
            .sink(receiveCompletion: { _ in self.finished = true }, receiveValue: { self.received.append($0) })
    }

    func testEveryValueKeepsTheIndexOfItsPublisherInTheOrderTheyCame() {
        let subjects = (0..<3).map { _ in PassthroughSubject<String, Boom>() }
        subscribe(subjects)
        subjects[2].send("c")
        subjects[0].send("a")
        subjects[1].send("b")
        subjects[2].send("c2")
        XCTAssertEqual(received.map(\.index), [2, 0, 1, 2])
        XCTAssertEqual(received.map { try? $0.result.get() }, ["c", "a", "b", "c2"])
    }

    func testItFinishesOnlyWhenEveryPublisherHasEnded() {
        let subjects = (0..<3).map { _ in PassthroughSubject<String, Boom>() }
        subscribe(subjects)
        subjects[0].send(completion: .finished)
        subjects[2].send(completion: .failure(Boom(id: 2)))
        XCTAssertFalse(finished)
        subjects[1].send("late")
        subjects[1].send(completion: .finished)
        XCTAssertTrue(finished)
        XCTAssertEqual(received, [Indexed(index: 2, result: .failure(Boom(id: 2))), Indexed(index: 1, result: .success("late"))])
    }

    func testAnErrorEndsOnlyItsOwnPublisher() {
        let subjects = (0..<3).map { _ in PassthroughSubject<String, Boom>() }
        subscribe(subjects)
        subjects[1].send(completion: .failure(Boom(id: 1)))
        subjects[1].send("after its end") // ignored: that publisher is over
        subjects[0].send("a")
        subjects[2].send("c")
        XCTAssertEqual(received, [Indexed(index: 1, result: .failure(Boom(id: 1))),
                                  Indexed(index: 0, result: .success("a")), Indexed(index: 2, result: .success("c"))])
        XCTAssertFalse(finished)
    }

    func testNoPublishersFinishesAtOnceAndCancellingCancelsEveryOne() {
        subscribe([])
        XCTAssertTrue(finished)
        var cancelled: [Int] = []
        let subjects = (0..<3).map { _ in PassthroughSubject<String, Boom>() }
        let publishers = subjects.enumerated().map { index, subject in
            subject.handleEvents(receiveCancel: { cancelled.append(index) }).eraseToAnyPublisher()
        }
        let subscription = indexedMerge(publishers).sink { _ in }
        subscription.cancel()
        XCTAssertEqual(cancelled.sorted(), [0, 1, 2])
    }

    /// Any interleaving of answers: each index's values arrive in its own order, none lost or mixed up.
    func testAnyInterleavingKeepsEachPublishersOwnOrder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            received = []
            finished = false
            let count = Int.random(in: 1...5, using: &generator)
            let subjects = (0..<count).map { _ in PassthroughSubject<String, Boom>() }
            subscribe(subjects)
            var sent = Array(repeating: [String](), count: count)
            var open = Set(0..<count)
            while let index = open.randomElement(using: &generator) {
                switch Int.random(in: 0..<6, using: &generator) {
                case 0:
                    subjects[index].send(completion: .finished)
                    open.remove(index)
                case 1:
                    subjects[index].send(completion: .failure(Boom(id: index)))
                    open.remove(index)
                default:
                    let value = "\(index).\(sent[index].count)"
                    sent[index].append(value)
                    subjects[index].send(value)
                }
            }
            XCTAssertTrue(finished)
            for index in 0..<count {
                let values = received.filter { $0.index == index }.compactMap { try? $0.result.get() }
                XCTAssertEqual(values, sent[index])
            }
        }
    }
}

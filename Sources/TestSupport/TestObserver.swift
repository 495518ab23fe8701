import Foundation
import OpenCombineShim

/// Records every value a publisher emits, so tests can assert the whole history.
public final class TestObserver<Value> {
    public private(set) var values: [Value] = []
    public private(set) var finished = false
    private var cancellable: AnyCancellable?

    public init<P: Publisher>(_ publisher: P) where P.Output == Value, P.Failure == Never {
        cancellable = publisher.sink(
            receiveCompletion: { [weak self] _ in self?.finished = true },
            receiveValue: { [weak self] in self?.values.append($0) })
    }

    public var last: Value? { values.last }

    public func cancel() { cancellable?.cancel() }
}

extension TestObserver where Value: Equatable {
    /// Asserts the whole history of values, so an extra or a missing emission fails as surely as a wrong one.
    /// The failure lists each position that differs, expected against recorded.
    public func assertValues(_ expected: [Value], _ message: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        guard values != expected else { return }
        var report: [String] = []
        for i in 0..<max(values.count, expected.count) {
            guard i >= expected.count || i >= values.count || expected[i] != values[i] else { continue }
            let e = i < expected.count ? "\(expected[i])" : "<none>"
            let a = i < values.count ? "\(values[i])" : "<none>"
            report.append("value \(i + 1):\n  - \(e)\n  + \(a)")
        }
        let prefix = message.isEmpty ? "" : message + "\n"
        recordFailure("\(prefix)\(values.count) values recorded, \(expected.count) expected (- expected, + recorded):\n"
                + report.joined(separator: "\n"), file: file, line: line)
    }
}

import Foundation
import Testing
import XCTest

/// Reports a failure to the test that is running, whichever library runs it: an issue of the current
/// Swift Testing test, or an XCTest failure. Every assertion and every `.failing` double goes through it,
/// so a double that is called when it should not be fails a test of either kind.
public func recordFailure(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
    if Test.current != nil {
        let path = "\(file)"
        let fileID = path.split(separator: "/").suffix(2).joined(separator: "/")
        Issue.record(Comment(rawValue: message),
                     sourceLocation: SourceLocation(fileID: fileID, filePath: path, line: Int(line), column: 1))
    } else {
        XCTFail(message, file: file, line: line)
    }
}

/// The same, at a Swift Testing caller's location.
public func recordFailure(_ message: String, sourceLocation: SourceLocation) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    } else {
        XCTFail("\(sourceLocation): \(message)")
    }
}

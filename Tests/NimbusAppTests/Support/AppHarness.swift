import Foundation
import XCTest
import CombineSchedulers
import NimbusData
import NimbusTerminal
@testable import NimbusApp

/// The whole app on a fake terminal with a virtual clock, as a user drives it: keys, text, resizes,
/// restarts. Data and cache directories are its own and survive `restart()`, as on disk.
final class AppHarness {
    let scheduler = DispatchQueue.test
    let environment: [String: String]
    let arguments: [String]
    private(set) var app: AppCoordinator
    private(set) var container: AppDIContainer
    var size: Size
    private var parser = KeyParser()
    private(set) var lastFrame: ScreenBuffer

    /// `environment` should already be isolated (see `XCTestCase.isolated`).
    init(environment: [String: String], arguments: [String] = [], size: Size = Size(cols: 80, rows: 24),
         httpClient: HTTPClient? = nil) throws {
        self.environment = environment
        self.arguments = arguments
        self.size = size
        self.httpClient = httpClient
        (app, container) = try Self.launch(environment: environment, arguments: arguments, scheduler: scheduler,
                                           httpClient: httpClient)
        lastFrame = app.render(size: size)
        settle()
    }

    private let httpClient: HTTPClient?

    private static func launch(environment: [String: String], arguments: [String],
                               scheduler: TestSchedulerOf<DispatchQueue>, httpClient: HTTPClient?) throws
        -> (AppCoordinator, AppDIContainer) {
        var configuration = try CLIOptions.parse(arguments).configuration(
            environment: environment, scheduler: MainScheduler.onVirtualClock(scheduler), colors: true)
        if let httpClient { configuration.httpClient = httpClient }
        let container = try AppDIContainer(configuration: configuration)
        let app = AppCoordinator(container: container)
        app.start()
        return (app, container)
    }

    var quit: Bool { app.quitRequested }


    /// The screen as text, after pending work on the virtual clock ran.
    var screen: String {
        settle()
        return lastFrame.text()
    }

    func press(_ keys: Key...) { send(keys) }

    func press(_ key: Key, times: Int) { send(Array(repeating: key, count: times)) }

    /// Hands each key to the app as the live loop does: handle, run what is due, draw.
    func send(_ keys: [Key]) {
        for key in keys where !quit {
            app.handle(key)
            settle()
        }
    }

    /// Types `text` as the terminal would send it, through the key parser.
    func type(_ text: String) {
        send(parser.feed(Array(text.utf8)) + parser.flushPending())
    }

    func resize(_ new: Size) {
        size = new
        settle()
    }

    func advance(by interval: DispatchQueue.SchedulerTimeType.Stride) {
        scheduler.advance(by: interval)
        draw()
    }

    /// Lets virtual and real time pass (for a loopback server's answers) until `text` shows, up to 10 s.
    @discardableResult
    func wait(for text: String, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !screen.contains(text) && Date() < deadline {
            scheduler.advance(by: .milliseconds(50))
            Thread.sleep(forTimeInterval: 0.005)
            draw()
        }
        return screen.contains(text)
    }

    /// Quits and starts the app again on the same data.
    func restart() throws {
        (app, container) = try Self.launch(environment: environment, arguments: arguments, scheduler: scheduler,
                                           httpClient: httpClient)
        parser = KeyParser()
        settle()
    }

    func settle() {
        scheduler.advance()
        draw()
    }

    private func draw() {
        lastFrame = app.render(size: size)
        app.frameShown()
    }
}

import GRDB

/// What is on disk, read with a connection of its own: the truth the screens must agree with.
extension AppHarness {
    private func read<T>(_ body: (Database) throws -> T) throws -> T? {
        guard let data = environment["XDG_DATA_HOME"] else { return nil }
        let path = URL(fileURLWithPath: data).appendingPathComponent("nimbus/nimbus.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read(body)
    }

    /// Saved films' titles, newest first.
    func savedWishlist() throws -> [String] {
        try read { db in
            guard try db.tableExists("wishlist") else { return [] }
            return try String.fetchAll(db, sql: "SELECT title FROM wishlist ORDER BY added_at DESC, seq DESC")
        } ?? []
    }

    /// Liked city ids, newest first.
    func savedLikes() throws -> [Int] {
        try read { db in
            guard try db.tableExists("liked_city") else { return [] }
            return try Int.fetchAll(db, sql: "SELECT city_id FROM liked_city ORDER BY liked_at DESC, rowid DESC")
        } ?? []
    }
}

import Foundation
import GRDB
import NimbusApp
import NimbusData
import NimbusTerminal
import CombineSchedulers
import OpenCombineShim

/// The whole app on a fake terminal with a virtual clock, driven as a user drives it: keys, text,
/// resizes, restarts. Frames go through the renderer to the fake terminal, as they go to a real one.
/// The data and cache directories are the harness's own and survive `restart()`, as on disk.
@MainActor
public final class AppHarness {
    /// The virtual clock: every timer, debounce and delivery of the app runs on it.
    public let scheduler: TestSchedulerOf<DispatchQueue>
    public let environment: [String: String]
    public let arguments: [String]
    public var app: AppCoordinator { loop.coordinator }
    /// The loop the live app runs, on the fake terminal and the virtual clock.
    private var loop: AppLoop!
    public private(set) var container: AppDIContainer
    public private(set) var size: Size
    public let terminal: FakeTerminal
    private let httpClient: HTTPClient?
    /// The wall clock the app reads (nil: the real one).
    private let now: (@Sendable () -> Date)?
    /// Where maps are drawn: nil on the virtual clock (deterministic), or a real queue, as the live app.
    private let renderQueue: DispatchQueue?
    /// A connection of the harness's own to the user database, opened on first read.
    private var reader: DatabaseQueue?
    private var parser = KeyParser()
    /// The frame on the terminal, and the one before it.
    public private(set) var frame: ScreenBuffer
    public private(set) var previousFrame: ScreenBuffer?

    /// `environment` should have its own data and cache directories (see `sandbox`); with
    /// `renderQueue`, maps are drawn on it, off the virtual clock, as the live app draws them.
    public init(environment: [String: String], arguments: [String] = [], size: Size = Size(cols: 80, rows: 24),
                scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test, httpClient: HTTPClient? = nil,
                renderQueue: DispatchQueue? = nil, now: (@Sendable () -> Date)? = nil) throws {
        self.scheduler = scheduler
        self.environment = environment
        self.arguments = arguments
        self.size = size
        self.httpClient = httpClient
        self.renderQueue = renderQueue
        self.now = now
        terminal = FakeTerminal(size: size)
        let app: AppCoordinator
        (app, container) = try Self.launch(environment: environment, arguments: arguments, scheduler: scheduler,
                                           httpClient: httpClient, renderQueue: renderQueue, now: now)
        frame = ScreenBuffer(size: size)
        loop = makeLoop(app)
        settle()
    }

    /// `environment` with HOME and the XDG directories in a new temporary directory (returned, for
    /// the caller to remove), so nothing reads or writes the user's own data.
    public static func sandbox(_ environment: [String: String]) -> (environment: [String: String], home: URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-harness-\(UUID().uuidString)")
        var env = environment
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        return (env, home)
    }

    private static func launch(environment: [String: String], arguments: [String],
                               scheduler: TestSchedulerOf<DispatchQueue>, httpClient: HTTPClient?,
                               renderQueue: DispatchQueue?, now: (@Sendable () -> Date)?) throws -> (AppCoordinator, AppDIContainer) {
        var configuration = try CLIOptions.parseCommandLine(arguments).configuration(
            environment: environment, scheduler: MainScheduler.onVirtualClock(scheduler), colors: true)
        if let httpClient { configuration.httpClient = httpClient }
        if let renderQueue { configuration.renderScheduler = renderQueue.eraseToAnyScheduler() }
        if let now { configuration.now = now }
        configuration.retryJitter = { 0.5 }
        let container = try AppDIContainer(configuration: configuration)
        let app = AppCoordinator(container: container)
        app.start()
        return (app, container)
    }

    public var quit: Bool { app.quitRequested }

    private func makeLoop(_ app: AppCoordinator) -> AppLoop {
        let scheduler = self.scheduler
        let loop = AppLoop(coordinator: app, backend: terminal, size: { [unowned self] in self.size },
                           runDueWork: { scheduler.advance() })
        loop.onFrame = { [unowned self] frame in
            self.previousFrame = self.frame
            self.frame = frame
        }
        return loop
    }

    /// The screen as text, after pending work on the virtual clock ran.
    public var screen: String {
        settle()
        return terminal.screenText()
    }

    public func press(_ keys: Key...) { send(keys) }

    public func press(_ key: Key, times: Int) { send(Array(repeating: key, count: times)) }

    /// Hands each key to the app as the live loop does: handle, run what is due, draw.
    public func send(_ keys: [Key]) {
        for key in keys where !quit {
            loop.handle([key])
        }
    }

    /// Types `text` as the terminal would send it, through the key parser.
    public func type(_ text: String) { feed(Array(text.utf8)) }

    /// Bytes as the terminal sends them (a paste may hold control bytes and escape sequences).
    public func feed(_ bytes: [UInt8]) {
        send(parser.feed(bytes) + parser.flushPending())
    }

    public func resize(_ new: Size) {
        size = new
        terminal.size = new
        loop.invalidate()
        settle()
    }

    public func advance(by interval: DispatchQueue.SchedulerTimeType.Stride) {
        scheduler.advance(by: interval)
        draw()
    }

    /// Lets virtual and real time pass (for a server's answers) until `text` shows, up to `timeout` s.
    @discardableResult
    public func wait(for text: String, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !screen.contains(text) && Date() < deadline {
            scheduler.advance(by: .milliseconds(50))
            Thread.sleep(forTimeInterval: 0.005)
            draw()
        }
        return screen.contains(text)
    }

    /// How many times the app was started again (`restart`).
    public private(set) var restarts = 0

    /// Quits and starts the app again on the same data, as a user does.
    public func restart() throws {
        restarts += 1
        let app: AppCoordinator
        (app, container) = try Self.launch(environment: environment, arguments: arguments, scheduler: scheduler,
                                           httpClient: httpClient, renderQueue: renderQueue, now: now)
        parser = KeyParser()
        loop = makeLoop(app)
        previousFrame = nil
        settle()
    }

    public func settle() {
        scheduler.advance()
        draw()
    }

    private func draw() {
        loop.draw()
    }

    /// Rows whose cells (text or style) differ between the last two frames: what the renderer sent.
    public var changedRows: Set<Int> {
        guard let previousFrame, previousFrame.size == frame.size else { return Set(0..<frame.size.rows) }
        let old = previousFrame.allCells, new = frame.allCells
        var rows = Set<Int>()
        for i in new.indices where new[i] != old[i] { rows.insert(i / frame.size.cols) }
        return rows
    }
}

/// What is on disk, read with a connection of its own: the truth the screens must agree with.
extension AppHarness {
    private func read<T>(_ body: (Database) throws -> T) throws -> T? {
        if reader == nil {
            guard let data = environment["XDG_DATA_HOME"] else { return nil }
            let path = URL(fileURLWithPath: data).appendingPathComponent("nimbus/nimbus.sqlite").path
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            var configuration = Configuration()
            configuration.readonly = true
            reader = try DatabaseQueue(path: path, configuration: configuration)
        }
        return try reader?.read(body)
    }

    /// Saved films' titles, newest first.
    public func savedWishlist() throws -> [String] {
        try read { db in
            guard try db.tableExists("wishlist") else { return [] }
            return try String.fetchAll(db, sql: "SELECT title FROM wishlist ORDER BY added_at DESC, seq DESC")
        } ?? []
    }

    /// The liked ids the running app's store says are saved (what its screens show).
    public var acknowledgedLikes: [Int] {
        var ids: [Int] = []
        _ = container.likesStore.contents.sink { ids = $0 }
        return ids
    }

    /// The film titles the running app's wishlist store says are saved, newest first.
    public var acknowledgedFilms: [String] {
        var titles: [String] = []
        _ = container.wishlistContents.sink { titles = $0.map(\.movie.title) }
        return titles
    }

    /// Makes every change of the likes and the wishlist fail as a full disk does ("database or disk
    /// is full", nothing written), or lets them through again: triggers in the user database itself,
    /// so the app's own connection meets them. Nothing happens before the database exists (false).
    @discardableResult
    public func setDiskFull(_ full: Bool) throws -> Bool {
        guard let data = environment["XDG_DATA_HOME"] else { return false }
        let path = URL(fileURLWithPath: data).appendingPathComponent("nimbus/nimbus.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in
            for table in ["liked_city", "wishlist"] where try db.tableExists(table) {
                for change in ["INSERT", "UPDATE", "DELETE"] {
                    let name = "harness_full_\(table)_\(change.lowercased())"
                    try db.execute(sql: full
                        ? "CREATE TRIGGER IF NOT EXISTS \(name) BEFORE \(change) ON \(table) BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
                        : "DROP TRIGGER IF EXISTS \(name)")
                }
            }
        }
        try writer.close()
        return true
    }

    /// Liked city ids, newest first.
    public func savedLikes() throws -> [Int] {
        try read { db in
            guard try db.tableExists("liked_city") else { return [] }
            return try Int.fetchAll(db, sql: "SELECT city_id FROM liked_city ORDER BY liked_at DESC, rowid DESC")
        } ?? []
    }
}

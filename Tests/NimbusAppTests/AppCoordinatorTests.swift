import XCTest
import CombineSchedulers
import NimbusTerminal
import TestSupport
@testable import NimbusApp

@MainActor
final class AppCoordinatorTests: XCTestCase {
    private func makeCoordinator(_ environment: [String: String] = [:]) throws -> (AppCoordinator, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(
            environment: isolated(environment), scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        scheduler.advance()
        return (coordinator, scheduler)
    }

    nonisolated func testEverySizeFromOneByOneTo500By200Draws() throws {
        try onMain(self) { try $0.mainActorTestEverySizeFromOneByOneTo500By200Draws() }
    }

    private func mainActorTestEverySizeFromOneByOneTo500By200Draws() throws {
        let (coordinator, scheduler) = try makeCoordinator(["NIMBUS_LANG": "ko"])
        coordinator.handle(.char("/"))
        for c in "서울" { coordinator.handle(.char(c)) }
        scheduler.advance()
        var sizes: [Size] = [Size(cols: 500, rows: 200), Size(cols: 1, rows: 1), Size(cols: 2, rows: 1), Size(cols: 1, rows: 2)]
        for cols in stride(from: 1, through: 120, by: 7) {
            for rows in stride(from: 1, through: 40, by: 3) { sizes.append(Size(cols: cols, rows: rows)) }
        }
        let terminal = FakeTerminal(size: Size(cols: 80, rows: 24))
        let renderer = Renderer(backend: terminal)
        for size in sizes {
            let frame = coordinator.render(size: size)
            XCTAssertEqual(frame.size, size)
            terminal.size = size
            renderer.render(frame)
            XCTAssertEqual(terminal.screenText(), frame.text(), "size \(size)")
        }
        coordinator.handle(.enter)
        coordinator.handle(.char("?"))
        XCTAssertTrue(coordinator.render(size: Size(cols: 80, rows: 24)).text().contains("단축키"))
        for size in sizes { XCTAssertEqual(coordinator.render(size: size).size, size) }
    }

    nonisolated func testDigitsSwitchOnlyToTabsThatExistAndQIsTextInTheField() throws {
        try onMain(self) { try $0.mainActorTestDigitsSwitchOnlyToTabsThatExistAndQIsTextInTheField() }
    }

    private func mainActorTestDigitsSwitchOnlyToTabsThatExistAndQIsTextInTheField() throws {
        let (coordinator, _) = try makeCoordinator()
        coordinator.handle(.char("9"))
        XCTAssertFalse(coordinator.quitRequested)
        coordinator.handle(.char("/"))
        coordinator.handle(.char("q"))
        XCTAssertFalse(coordinator.quitRequested, "q inside the search field is text")
        coordinator.handle(.enter)
        coordinator.handle(.char("q"))
        XCTAssertTrue(coordinator.quitRequested)
    }

    nonisolated func testCtrlCQuitsFromAnywhere() throws {
        try onMain(self) { try $0.mainActorTestCtrlCQuitsFromAnywhere() }
    }

    private func mainActorTestCtrlCQuitsFromAnywhere() throws {
        let (coordinator, _) = try makeCoordinator()
        coordinator.handle(.char("?"))
        coordinator.handle(.ctrl("c"))
        XCTAssertTrue(coordinator.quitRequested)
    }
}

@MainActor
final class AppCoordinatorKeyTests: XCTestCase {
    nonisolated func testQIsTextInTheHelpThenQuitsAndCtrlZAsksToSuspend() throws {
        try onMain(self) { try $0.mainActorTestQClosesHelpThenQuitsAndCtrlZAsksToSuspend() }
    }

    private func mainActorTestQClosesHelpThenQuitsAndCtrlZAsksToSuspend() throws {
        let container = try AppDIContainer(configuration: .init(
            environment: isolated([:]), scheduler: DispatchQueue.test.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        var suspends = 0
        coordinator.onSuspendRequested = { suspends += 1 }
        coordinator.start()
        coordinator.handle(.ctrl("z"))
        XCTAssertEqual(suspends, 1)
        coordinator.handle(.char("?"))
        coordinator.handle(.char("q"))
        XCTAssertFalse(coordinator.quitRequested, "in the help, q is text for its filter")
        coordinator.handle(.char("?"))
        coordinator.handle(.char("q"))
        XCTAssertTrue(coordinator.quitRequested)
    }
}

extension XCTestCase {
    /// `environment` with HOME and the XDG directories in a fresh temporary directory, removed after the test,
    /// so no test reads or writes the user's own data.
    func isolated(_ environment: [String: String]) -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-app-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        var env = environment
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = env["XDG_DATA_HOME"] ?? home.appendingPathComponent("data").path
        env["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"] ?? home.appendingPathComponent("cache").path
        return env
    }
}

@MainActor
final class WeatherTabsTests: XCTestCase {
    nonisolated func testTabsAreCitiesTodayLikedAndACorruptDatabaseIsAnnounced() throws {
        try onMain(self) { try $0.mainActorTestTabsAreCitiesTodayLikedAndACorruptDatabaseIsAnnounced() }
    }

    private func mainActorTestTabsAreCitiesTodayLikedAndACorruptDatabaseIsAnnounced() throws {
        let environment = isolated([:])
        let directory = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("nimbus")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 4096).write(to: directory.appendingPathComponent("nimbus.sqlite"))
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(environment: environment, scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        scheduler.advance()
        let first = coordinator.render(size: Size(cols: 100, rows: 24)).text()
        XCTAssertEqual(first.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) },
                       "1 Cities  2 Today  3 Liked  4 Quakes  5 Movies  6 Wishlist")
        XCTAssertTrue(first.contains("Saved data unreadable, moved aside (tab 3)"), first)
        coordinator.handle(.char("3"))
        scheduler.advance()
        let liked = coordinator.render(size: Size(cols: 100, rows: 24)).text()
        XCTAssertTrue(liked.contains("No liked cities yet"), liked)
        XCTAssertTrue(liked.contains("Your saved data could not be read; it was moved aside to"), liked)
        XCTAssertTrue(liked.contains("nimbus.sqlite.corrupt-"), liked)
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("corrupt") }
        XCTAssertEqual(aside.count, 1)
    }

    nonisolated func testAnUnusableDataDirectoryIsAnnouncedNotSilentlyForgotten() throws {
        try onMain(self) { try $0.mainActorTestAnUnusableDataDirectoryIsAnnouncedNotSilentlyForgotten() }
    }

    private func mainActorTestAnUnusableDataDirectoryIsAnnouncedNotSilentlyForgotten() throws {
        var environment = isolated([:])
        // A regular file where the data directory should be: nothing can be created under it.
        let blocker = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("blocker")
        try FileManager.default.createDirectory(at: blocker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker)
        environment["XDG_DATA_HOME"] = blocker.path
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(environment: environment, scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        scheduler.advance()
        XCTAssertTrue(coordinator.render(size: Size(cols: 100, rows: 24)).text().contains("Not saving: data directory unusable"))
        coordinator.handle(.char("6"))
        scheduler.advance()
        let wishlist = coordinator.render(size: Size(cols: 160, rows: 24)).text()
        XCTAssertTrue(wishlist.contains("Can’t save to ~/blocker/nimbus (Not a directory): likes, the wishlist"), wishlist)
    }

    nonisolated func testTheTodayTabAtEverySize() throws {
        try onMain(self) { try $0.mainActorTestTheTodayTabAtEverySize() }
    }

    private func mainActorTestTheTodayTabAtEverySize() throws {
        let scheduler = DispatchQueue.test
        var environment = isolated([:])
        environment["NIMBUS_LOCATION"] = "37.5,127"
        environment["NIMBUS_LANG"] = "ja"
        let container = try AppDIContainer(configuration: .init(environment: environment, scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        coordinator.handle(.char("2"))
        _ = coordinator.render(size: Size(cols: 80, rows: 24))
        scheduler.advance(by: .seconds(1))
        XCTAssertTrue(coordinator.render(size: Size(cols: 80, rows: 24)).text().contains("› ソウル"))
        for cols in stride(from: 1, through: 200, by: 11) {
            for rows in stride(from: 1, through: 60, by: 7) {
                XCTAssertEqual(coordinator.render(size: Size(cols: cols, rows: rows)).size, Size(cols: cols, rows: rows))
            }
        }
    }
}

import Foundation
import Testing
import CombineSchedulers
import NimbusTerminal
import TestSupport
@testable import NimbusApp

@Suite @MainActor struct AppCoordinatorTests {
    private let temporary = TemporaryDirectories()

    private func makeCoordinator(_ environment: [String: String] = [:]) throws -> (AppCoordinator, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(
            environment: temporary.isolated(environment), scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        scheduler.advance()
        return (coordinator, scheduler)
    }

    @Test func testEverySizeFromOneByOneTo500By200Draws() throws {
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
            #expect(frame.size == size)
            terminal.size = size
            renderer.render(frame)
            #expect(terminal.screenText() == frame.text(), "size \(size)")
        }
        coordinator.handle(.enter)
        coordinator.handle(.char("?"))
        #expect(coordinator.render(size: Size(cols: 80, rows: 24)).text().contains("단축키"))
        for size in sizes { #expect(coordinator.render(size: size).size == size) }
    }

    @Test func testDigitsSwitchOnlyToTabsThatExistAndQIsTextInTheField() throws {
        let (coordinator, _) = try makeCoordinator()
        coordinator.handle(.char("9"))
        #expect(!coordinator.quitRequested)
        coordinator.handle(.char("/"))
        coordinator.handle(.char("q"))
        #expect(!coordinator.quitRequested, "q inside the search field is text")
        coordinator.handle(.enter)
        coordinator.handle(.char("q"))
        #expect(coordinator.quitRequested)
    }

    @Test func testCtrlCQuitsFromAnywhere() throws {
        let (coordinator, _) = try makeCoordinator()
        coordinator.handle(.char("?"))
        coordinator.handle(.ctrl("c"))
        #expect(coordinator.quitRequested)
    }
}

@Suite @MainActor struct AppCoordinatorKeyTests {
    private let temporary = TemporaryDirectories()

    @Test func testQIsTextInTheHelpThenQuitsAndCtrlZAsksToSuspend() throws {
        let container = try AppDIContainer(configuration: .init(
            environment: temporary.isolated([:]), scheduler: DispatchQueue.test.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        var suspends = 0
        coordinator.onSuspendRequested = { suspends += 1 }
        coordinator.start()
        coordinator.handle(.ctrl("z"))
        #expect(suspends == 1)
        coordinator.handle(.char("?"))
        coordinator.handle(.char("q"))
        #expect(!coordinator.quitRequested, "in the help, q is text for its filter")
        coordinator.handle(.char("?"))
        coordinator.handle(.char("q"))
        #expect(coordinator.quitRequested)
    }
}


@Suite @MainActor struct WeatherTabsTests {
    private let temporary = TemporaryDirectories()

    @Test func testTabsAreCitiesTodayLikedAndACorruptDatabaseIsAnnounced() throws {
        let environment = temporary.isolated([:])
        let directory = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("nimbus")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 4096).write(to: directory.appendingPathComponent("nimbus.sqlite"))
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(environment: environment, scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        scheduler.advance()
        let first = coordinator.render(size: Size(cols: 100, rows: 24)).text()
        #expect((first.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }) == "1 Cities  2 Today  3 Liked  4 Quakes  5 Movies  6 Wishlist")
        #expect(first.contains("Saved data unreadable, moved aside (tab 3)"), "\(first)")
        coordinator.handle(.char("3"))
        scheduler.advance()
        let liked = coordinator.render(size: Size(cols: 100, rows: 24)).text()
        #expect(liked.contains("No liked cities yet"), "\(liked)")
        #expect(liked.contains("Your saved data could not be read; it was moved aside to"), "\(liked)")
        #expect(liked.contains("nimbus.sqlite.corrupt-"), "\(liked)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("corrupt") }
        #expect(aside.count == 1)
    }

    @Test func testAnUnusableDataDirectoryIsAnnouncedNotSilentlyForgotten() throws {
        var environment = temporary.isolated([:])
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
        #expect(coordinator.render(size: Size(cols: 100, rows: 24)).text().contains("Not saving: data directory unusable"))
        coordinator.handle(.char("6"))
        scheduler.advance()
        let wishlist = coordinator.render(size: Size(cols: 160, rows: 24)).text()
        #expect(wishlist.contains("Can’t save to ~/blocker/nimbus (Not a directory): likes, the wishlist"), "\(wishlist)")
    }

    @Test func testTheTodayTabAtEverySize() throws {
        let scheduler = DispatchQueue.test
        var environment = temporary.isolated([:])
        environment["NIMBUS_LOCATION"] = "37.5,127"
        environment["NIMBUS_LANG"] = "ja"
        let container = try AppDIContainer(configuration: .init(environment: environment, scheduler: scheduler.eraseToAnyScheduler()))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        coordinator.handle(.char("2"))
        _ = coordinator.render(size: Size(cols: 80, rows: 24))
        scheduler.advance(by: .seconds(1))
        #expect(coordinator.render(size: Size(cols: 80, rows: 24)).text().contains("› ソウル"))
        for cols in stride(from: 1, through: 200, by: 11) {
            for rows in stride(from: 1, through: 60, by: 7) {
                #expect(coordinator.render(size: Size(cols: cols, rows: rows)).size == Size(cols: cols, rows: rows))
            }
        }
    }
}

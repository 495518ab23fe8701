import XCTest
import CombineSchedulers
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// The loop both runners drive: keys, the frame, the one "needs display" flag.
@MainActor
final class AppLoopTests: XCTestCase {
    private func makeLoop() throws -> (AppLoop, FakeTerminal, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(
            environment: isolated([:]), scheduler: MainScheduler.onVirtualClock(scheduler)))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        let terminal = FakeTerminal(size: Size(cols: 80, rows: 24))
        let loop = AppLoop(coordinator: coordinator, backend: terminal, size: { terminal.size },
                           runDueWork: { scheduler.advance() })
        scheduler.advance()
        loop.draw()
        return (loop, terminal, scheduler)
    }

    nonisolated func testKeysAreHandledThenTheirFrameIsDrawnAndTheFlagCleared() throws {
        try onMain(self) { try $0.mainActorTestKeysAreHandledThenTheirFrameIsDrawnAndTheFlagCleared() }
    }

    private func mainActorTestKeysAreHandledThenTheirFrameIsDrawnAndTheFlagCleared() throws {
        let (loop, terminal, _) = try makeLoop()
        var frames = 0
        loop.onFrame = { _ in frames += 1 }
        XCTAssertFalse(loop.needsDisplay.isSet, "drawing clears the flag")
        XCTAssertFalse(loop.handle([.char("?")]))
        XCTAssertEqual(frames, 1, "one frame for the keys")
        XCTAssertFalse(loop.needsDisplay.isSet)
        XCTAssertTrue(loop.coordinator.place.overlay)
        XCTAssertNotEqual(terminal.screenText(), "", "the frame is on the terminal")
        loop.drawIfNeeded()
        XCTAssertEqual(frames, 1, "nothing asked for another frame")
    }

    nonisolated func testATabSwitchRaisesTheFlagAndDrawIfNeededDrawsOnce() throws {
        try onMain(self) { try $0.mainActorTestATabSwitchRaisesTheFlagAndDrawIfNeededDrawsOnce() }
    }

    private func mainActorTestATabSwitchRaisesTheFlagAndDrawIfNeededDrawsOnce() throws {
        let (loop, _, _) = try makeLoop()
        var frames = 0
        loop.onFrame = { _ in frames += 1 }
        loop.coordinator.handle(.char("3"))
        XCTAssertTrue(loop.needsDisplay.isSet, "the navigator raised the flag")
        loop.drawIfNeeded()
        loop.drawIfNeeded()
        XCTAssertEqual(frames, 1)
        XCTAssertEqual(loop.coordinator.place.tab, 2)
    }

    nonisolated func testAQuitKeyStopsTheKeysAfterItAndDrawsNothing() throws {
        try onMain(self) { try $0.mainActorTestAQuitKeyStopsTheKeysAfterItAndDrawsNothing() }
    }

    private func mainActorTestAQuitKeyStopsTheKeysAfterItAndDrawsNothing() throws {
        let (loop, _, _) = try makeLoop()
        var frames = 0
        loop.onFrame = { _ in frames += 1 }
        XCTAssertTrue(loop.handle([.char("q"), .char("2")]))
        XCTAssertEqual(frames, 0)
        XCTAssertEqual(loop.coordinator.place.tab, 0, "the key after q was not handled")
    }

    nonisolated func testCtrlLRepaintsTheWholeTerminal() {
        onMain(self) { $0.mainActorTestCtrlLRepaintsTheWholeTerminal() }
    }

    private func mainActorTestCtrlLRepaintsTheWholeTerminal() {
        let flag = NeedsDisplay()
        flag.setFullRedraw()
        XCTAssertTrue(flag.isSet)
        XCTAssertTrue(flag.take() == (display: true, fullRedraw: true))
        XCTAssertTrue(flag.take() == (display: false, fullRedraw: false), "taking clears both")
    }

    nonisolated func testTheMouseSettingTurnsReportingOnAndOffAtOnce() throws {
        try onMain(self) { try $0.mainActorTestTheMouseSettingTurnsReportingOnAndOffAtOnce() }
    }

    private func mainActorTestTheMouseSettingTurnsReportingOnAndOffAtOnce() throws {
        let (loop, terminal, _) = try makeLoop()
        XCTAssertEqual(terminal.mouseReporting, [], "the session starts as the backend was made")
        // Settings, down to the Mouse row, change it: the frame that shows "off" turned reporting off.
        loop.handle([.char(",")] + Array(repeating: Key.down, count: 6) + [.right])
        XCTAssertTrue(terminal.screenText().contains("Mouse        ‹ off ›"), terminal.screenText())
        XCTAssertEqual(terminal.mouseReporting, [false])
        loop.handle([.right])
        XCTAssertEqual(terminal.mouseReporting, [false, true])
    }
}

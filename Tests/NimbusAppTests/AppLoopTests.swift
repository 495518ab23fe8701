import Foundation
import Testing
import CombineSchedulers
import NimbusTerminal
import NimbusUI
import TestSupport
@testable import NimbusApp

/// The loop both runners drive: keys, the frame, the one "needs display" flag.
@Suite @MainActor struct AppLoopTests {
    private let temporary = TemporaryDirectories()

    private func makeLoop() throws -> (AppLoop, FakeTerminal, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(
            environment: temporary.isolated([:]), scheduler: MainScheduler.onVirtualClock(scheduler)))
        let coordinator = AppCoordinator(container: container)
        coordinator.start()
        let terminal = FakeTerminal(size: Size(cols: 80, rows: 24))
        let loop = AppLoop(coordinator: coordinator, backend: terminal, size: { terminal.size },
                           runDueWork: { scheduler.advance() })
        scheduler.advance()
        loop.draw()
        return (loop, terminal, scheduler)
    }

    @Test func testKeysAreHandledThenTheirFrameIsDrawnAndTheFlagCleared() throws {
        let (loop, terminal, _) = try makeLoop()
        var frames = 0
        loop.onFrame = { _ in frames += 1 }
        #expect(!loop.needsDisplay.isSet, "drawing clears the flag")
        #expect(!loop.handle([.char("?")]))
        #expect(frames == 1, "one frame for the keys")
        #expect(!loop.needsDisplay.isSet)
        #expect(loop.coordinator.place.overlay)
        #expect(terminal.screenText() != "", "the frame is on the terminal")
        loop.drawIfNeeded()
        #expect(frames == 1, "nothing asked for another frame")
    }

    @Test func testATabSwitchRaisesTheFlagAndDrawIfNeededDrawsOnce() throws {
        let (loop, _, _) = try makeLoop()
        var frames = 0
        loop.onFrame = { _ in frames += 1 }
        loop.coordinator.handle(.char("3"))
        #expect(loop.needsDisplay.isSet, "the navigator raised the flag")
        loop.drawIfNeeded()
        loop.drawIfNeeded()
        #expect(frames == 1)
        #expect(loop.coordinator.place.tab == 2)
    }

    @Test func testAQuitKeyStopsTheKeysAfterItAndDrawsNothing() throws {
        let (loop, _, _) = try makeLoop()
        var frames = 0
        loop.onFrame = { _ in frames += 1 }
        #expect(loop.handle([.char("q"), .char("2")]))
        #expect(frames == 0)
        #expect(loop.coordinator.place.tab == 0, "the key after q was not handled")
    }

    @Test func testCtrlLRepaintsTheWholeTerminal() {
        let flag = NeedsDisplay()
        flag.setFullRedraw()
        #expect(flag.isSet)
        #expect(flag.take() == (display: true, fullRedraw: true))
        #expect(flag.take() == (display: false, fullRedraw: false), "taking clears both")
    }

    @Test func testTheMouseSettingTurnsReportingOnAndOffAtOnce() throws {
        let (loop, terminal, _) = try makeLoop()
        #expect(terminal.mouseReporting == [], "the session starts as the backend was made")
        // Settings, down to the Mouse row, change it: the frame that shows "off" turned reporting off.
        loop.handle([.char(",")] + Array(repeating: Key.down, count: 6) + [.right])
        #expect(terminal.screenText().contains("Mouse        ‹ off ›"), "\(terminal.screenText())")
        #expect(terminal.mouseReporting == [false])
        loop.handle([.right])
        #expect(terminal.mouseReporting == [false, true])
    }
}

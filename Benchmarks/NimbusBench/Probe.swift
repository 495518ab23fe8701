import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation

enum Probe {
    static func run() {
        let c = try! CityCatalog.bundled()
        let refs = c.search("").refs.prefix(20)
        let countries = CountryNames(locale: Locale(identifier: "en_US"))
        let l = L10n.bundled(.en)
        func t(_ label: String, _ f: () -> Void) {
            let t0 = NimbusBenchmark.now(); for _ in 0..<50 { f() }; print(label, String(format: "%.1f µs per 20 rows", (NimbusBenchmark.now() - t0) / 50 * 1e6))
        }
        t("city") { for r in refs { _ = c.city(r) } }
        t("matched empty") { for r in refs { _ = c.matchedName(r, query: "") } }
        t("matched s") { for r in refs { _ = c.matchedName(r, query: "s") } }
        t("matched 서") { for r in c.search("서").refs.prefix(20) { _ = c.matchedName(r, query: "서") } }
        t("country") { for r in refs { _ = countries.name(c.city(r).countryCode) } }
        t("number") { for r in refs { _ = l.number(Int(r.index) * 1000) } }
    }
}

import NimbusApp
import NimbusTerminal
import CombineSchedulers

enum RenderProbe {
    static func run() {
        let container = try! AppDIContainer(configuration: .init(environment: [:], scheduler: DispatchQueue.immediate.eraseToAnyScheduler()))
        let app = AppCoordinator(container: container)
        app.start()
        let fake = FakeTerminal(size: Size(cols: 80, rows: 24))
        let renderer = Renderer(backend: fake)
        func t(_ label: String, _ f: () -> Void) {
            let t0 = NimbusBenchmark.now(); for _ in 0..<200 { f() }; print(label, String(format: "%.1f µs", (NimbusBenchmark.now() - t0) / 200 * 1e6))
        }
        t("render frame") { _ = app.render(size: Size(cols: 80, rows: 24)) }
        t("canvas only") { _ = Canvas(size: Size(cols: 80, rows: 24)) }
        let frame = app.render(size: Size(cols: 80, rows: 24))
        t("renderer same frame") { renderer.render(frame) }
        app.handle(.char("/"))
        var flip = false
        t("key + render + diff") { app.handle(.char(flip ? "s" : "x")); app.handle(.backspace); flip.toggle(); renderer.render(app.render(size: Size(cols: 80, rows: 24))) }
    }
}

/// What the command line documents besides its commands and options: every environment variable
/// the program reads, the files it keeps, its exit statuses and examples. `nimbus --help` names the
/// variables and the man page (`ManualPage`) says what each does; `ManualPageTests` checks that
/// every variable the sources read is here.
enum CommandLineDocs {
    /// One entry of a two-column list: what (variables, a file, a status) and what it means.
    struct Entry: Equatable, Sendable {
        let names: [String]
        let text: String

        init(_ names: [String], _ text: String) {
            self.names = names
            self.text = text
        }

        init(_ name: String, _ text: String) {
            self.init([name], text)
        }
    }

    /// Every environment variable Nimbus reads, the app's first, then the system's.
    static let environment: [Entry] = [
        Entry(["NIMBUS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"],
              "The language of the interface, the first that is set: en, ko or ja (C, POSIX or another language: English). Korean and Japanese draw correctly even when their locale is not installed (C.UTF-8 is used for characters)."),
        Entry(["NIMBUS_UNITS"],
              "metric (°C, km/h, hPa, mm, km), imperial (°F, mph, inHg, in, mi) or auto, over units in config.toml and under --units. Without any, the region of LC_ALL, LC_MEASUREMENT or LANG decides: en_US, en_LR and my_MM are imperial, any other region metric, and no region metric."),
        Entry(["LC_MEASUREMENT"], "Read for the units when LC_ALL is not set (see NIMBUS_UNITS)."),
        Entry(["NIMBUS_THEME"], "dark, light or auto (asks the terminal for its background), over theme in config.toml and under --theme."),
        Entry(["NIMBUS_MAP_STYLE"], "braille, blocks or auto (blocks on the Linux console), over map_style in config.toml and under --map-style."),
        Entry(["NIMBUS_MOUSE"], "0, off, no or false turn mouse reporting off, as --no-mouse does; 1, on, yes or true turn it on over mouse = false in config.toml."),
        Entry(["NIMBUS_LOCATION"], "Your position as LAT,LON (decimal degrees), after --location: the Today tab's nearest city, and the city nimbus weather shows when none is named. Without it, the home setting, else the most populous city of the system's time zone (TZ, else /etc/localtime), marked approximate."),
        Entry(["TMDB_API_KEY"], "Films come from TMDB (a v3 API key or a v4 read token) instead of the bundled catalogue; the status bar names the source. The key is never shown, logged or cached."),
        Entry(["NIMBUS_WEATHER_URL"], "The forecast server (default https://api.open-meteo.com; /v1/forecast is added)."),
        Entry(["NIMBUS_AIR_URL"], "The air-quality server (default https://air-quality-api.open-meteo.com; /v1/air-quality is added)."),
        Entry(["NIMBUS_ARCHIVE_URL"], "Open-Meteo's historical weather API, for the 1991–2020 normals (default https://archive-api.open-meteo.com)."),
        Entry(["NIMBUS_QUAKES_URL"], "The earthquake feeds' server (default https://earthquake.usgs.gov)."),
        Entry(["NIMBUS_NWS_URL"], "The US National Weather Service's API, for warnings in the United States (default https://api.weather.gov)."),
        Entry(["NIMBUS_NWS_CONTACT"], "An e-mail address or URL put in the User-Agent of requests to the NWS, which asks for a contact."),
        Entry(["NIMBUS_METEOALARM_URL"], "MeteoAlarm's feeds, for warnings in Europe (default https://feeds.meteoalarm.org)."),
        Entry(["NIMBUS_JMA_URL"], "The Japan Meteorological Agency's site, for warnings in Japan (default https://www.jma.go.jp)."),
        Entry(["NIMBUS_TMDB_URL"], "TMDB's base URL (default https://api.themoviedb.org)."),
        Entry(["NIMBUS_LOG"], "debug or info (any swift-log level; unset, empty or off: no log) logs every network request to $XDG_STATE_HOME/nimbus/nimbus.log, or to --log-file. Keys and tokens are written REDACTED; nothing is ever written to the terminal."),
        Entry(["NIMBUS_DATA_DIR"], "A folder of Nimbus's data (cities, films, maps, strings), looked in after the folder beside the binary and the installation prefix's share/nimbus."),
        Entry(["XDG_DATA_DIRS"], "Folders whose nimbus/ subfolder is looked in for the data last (default /usr/local/share:/usr/share)."),
        Entry(["XDG_DATA_HOME"], "Where the likes, the wishlist and recent searches (nimbus.sqlite, mode 0600) and the large city tier are kept: $XDG_DATA_HOME/nimbus, default ~/.local/share/nimbus."),
        Entry(["XDG_CONFIG_HOME"], "Where the settings are saved: $XDG_CONFIG_HOME/nimbus/config.toml, default ~/.config/nimbus/config.toml."),
        Entry(["XDG_CACHE_HOME"], "Where answers are kept for offline use (forecasts, air, warnings, normals, earthquake feeds, TMDB): $XDG_CACHE_HOME/nimbus, default ~/.cache/nimbus."),
        Entry(["XDG_STATE_HOME"], "Where the log goes: $XDG_STATE_HOME/nimbus/nimbus.log, default ~/.local/state/nimbus/nimbus.log."),
        Entry(["HOME"], "The base of every default folder above."),
        Entry(["TZDIR"], "The zone database every local time is read from (TZif files, default /usr/share/zoneinfo); point it at a newer release, such as the tzdata/zoneinfo folder of PyPI's tzdata, to follow newer rules."),
        Entry(["TZ"], "The system's time zone, which picks the city when no position is known (else /etc/localtime, else /etc/timezone)."),
        Entry(["NO_COLOR"], "Set and not empty: no colour; the selection and focus stay visible in reverse video and bold."),
        Entry(["TERM"], "The terminal's type, for ncurses; linux (the console) makes the map style auto draw blocks."),
        Entry(["COLUMNS", "LINES"], "Ignored when they disagree with the terminal's own size, so a resized window is drawn at its real size."),
        Entry(["NIMBUS_RECORD"], "1: nimbus tape writes the snapshots it compares (and fails, saying so: run again without it)."),
        Entry(["XDG_RUNTIME_DIR"], "Where nimbus tape keeps a failing tape's screen and recording by default (nimbus-tape-failures, made 0700), else a new folder in TMPDIR."),
        Entry(["TMPDIR"], "Where nimbus tape saves a failing tape's screen and recording (in nimbus-tape-failures), unless --failures says."),
    ]

    /// The files Nimbus reads and writes.
    static let files: [Entry] = [
        Entry("$XDG_CONFIG_HOME/nimbus/config.toml", "The settings (units, theme, map style, mouse, home, clock, first tab), written atomically when changed in the app (, or F2); a file that cannot be parsed is reported and never rewritten."),
        Entry("$XDG_DATA_HOME/nimbus/nimbus.sqlite", "Liked cities, the wishlist and recent searches (mode 0600). A database that cannot be read is moved aside to nimbus.sqlite.corrupt-… with a notice."),
        Entry("$XDG_DATA_HOME/nimbus/cities1000.bin", "The large city tier (--tier large), made by scripts/build-resources.py --tier 1000."),
        Entry("$XDG_CACHE_HOME/nimbus/", "Answers kept for offline use: weather, air, warnings, normals, jma-areas, quakes and tmdb."),
        Entry("$XDG_STATE_HOME/nimbus/nimbus.log", "The network log, with NIMBUS_LOG (rotated at 1 MB, 3 files kept)."),
        Entry("<prefix>/share/nimbus/", "The bundled data: cities15000.bin, movies.sqlite, landmask.bin, borders.bin, the warnings' region tables and the translations; nimbus --version lists what was found where."),
    ]

    /// What the exit status means, for every command.
    static let exitStatus: [Entry] = [
        Entry("0", "Done; for nimbus wishlist import, a film was added (or was saved already)."),
        Entry("1", "The command could not do its work: no city or film matched, no weather could be had, a file could not be read or written, no terminal, a tape failed, nothing was imported."),
        Entry("2", "The command line cannot be used: an unknown command or option, or a value out of range (the message names the range)."),
    ]

    /// Command lines worth copying, each with what it does.
    static let examples: [Entry] = [
        Entry("nimbus", "Open the app: search a city, see its weather, like it, browse films."),
        Entry("nimbus weather seoul --format '%l: %c %t %h %w'", "One line in wttr.in's codes, for a tmux status bar."),
        Entry("nimbus weather --oneline", "The weather of the city nearest to you (--location, NIMBUS_LOCATION, home or the time zone)."),
        Entry("nimbus weather 서울 --print --size 100x30", "The city's detail screen drawn once, 100 columns by 30 rows."),
        Entry("nimbus weather 'springfield, il' --json | jq .current.temperatureC", "The forecast as JSON, metric."),
        Entry("nimbus search paris --limit 5", "The five cities a search for paris ranks first, with their region and country."),
        Entry("nimbus map lisbon --zoom city --size 100x30", "Lisbon's map at city zoom, printed."),
        Entry("nimbus wishlist export films.json", "The wishlist as JSON (the extension picks the format)."),
        Entry("nimbus tape Tests/Tapes/*.tape", "Play scripted UI tests headless."),
    ]

    /// The variables' names, in the table's order, each once.
    static var environmentNames: [String] {
        var seen = Set<String>()
        return environment.flatMap(\.names).filter { seen.insert($0).inserted }
    }
}

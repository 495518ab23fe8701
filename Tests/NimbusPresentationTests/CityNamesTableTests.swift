import NimbusData
import NimbusDomain
import XCTest
@testable import NimbusPresentation

/// The names shown for the 50 largest cities (in the catalogue's population order) of Japan, Korea,
/// China and Taiwan, in English, Japanese and Korean: `ja` and `ko` are how each language writes the
/// city. Where GeoNames lacks that form, `…Lacking` is what the app falls back to (another listed form,
/// or the canonical name) and the test checks that the form is indeed missing from the city's names;
/// where the form is listed but the rules cannot reach it, `…Shown` and `why` say what and why.
/// Korean: for most Japanese and Chinese cities GeoNames lists only the city form with a spaced 시
/// (요코하마 시), which Korean writes 요코하마 or 요코하마시; the app shows 요코하마.
final class CityNamesTableTests: XCTestCase {
    struct Row {
        let canonical: String
        let ja: String
        let ko: String
        let jaShown: String?
        let koShown: String?
        let jaLacking: Bool
        let koLacking: Bool
        let why: String?

        init(_ canonical: String, ja: String, ko: String, jaLacking: String? = nil, koLacking: String? = nil,
             jaShown: String? = nil, koShown: String? = nil, why: String? = nil) {
            self.canonical = canonical
            self.ja = ja
            self.ko = ko
            self.jaShown = jaLacking ?? jaShown
            self.koShown = koLacking ?? koShown
            self.jaLacking = jaLacking != nil
            self.koLacking = koLacking != nil
            self.why = why
        }
    }

    static let rows: [String: [Row]] = [
        "JP": [
            Row("Tokyo", ja: "東京", ko: "도쿄"),
            Row("Yokohama", ja: "横浜", ko: "요코하마"),
            Row("Osaka", ja: "大阪", ko: "오사카"),
            Row("Nagoya", ja: "名古屋", ko: "나고야"),
            Row("Sapporo", ja: "札幌", ko: "삿포로"),
            Row("Fukuoka", ja: "福岡", ko: "후쿠오카"),
            Row("Kawasaki", ja: "川崎", ko: "가와사키"),
            Row("Kobe", ja: "神戸", ko: "고베"),
            Row("Kyoto", ja: "京都", ko: "교토"),
            Row("Saitama", ja: "さいたま", ko: "사이타마", koLacking: "Saitama"),
            Row("Hiroshima", ja: "広島", ko: "히로시마"),
            Row("Sendai", ja: "仙台", ko: "센다이", koLacking: "Sendai"),
            Row("Chiba", ja: "千葉", ko: "지바"),
            Row("Kitakyushu", ja: "北九州", ko: "기타큐슈"),
            Row("Setagaya", ja: "世田谷", ko: "세타가야", koLacking: "Setagaya"),
            Row("Sakai", ja: "堺", ko: "사카이"),
            Row("Niigata", ja: "新潟", ko: "니가타"),
            Row("Hamamatsu", ja: "浜松", ko: "하마마쓰"),
            Row("Ōta", ja: "大田区", ko: "오타", koLacking: "Ōta"),
            Row("Kumamoto", ja: "熊本", ko: "구마모토"),
            Row("Aihara", ja: "相原", ko: "아이하라", koLacking: "Aihara"),
            Row("Okayama", ja: "岡山", ko: "오카야마"),
            Row("Sagamihara", ja: "相模原", ko: "사가미하라", koLacking: "Sagamihara"),
            Row("Edogawe", ja: "江戸川区", ko: "에도가와", koLacking: "Edogawe"),
            Row("Adachi", ja: "足立", ko: "아다치", koLacking: "Adachi"),
            Row("Shizuoka", ja: "静岡", ko: "시즈오카"),
            Row("Honchō", ja: "本町", ko: "혼초", koLacking: "후나바시"),
            Row("Kawaguchi", ja: "川口", ko: "가와구치"),
            Row("Kagoshima", ja: "鹿児島", ko: "가고시마"),
            Row("Suginami", ja: "杉並", ko: "스기나미", koLacking: "Suginami"),
            Row("Itabashi", ja: "板橋", ko: "이타바시", koLacking: "Itabashi"),
            Row("Hachiōji", ja: "八王子", ko: "하치오지"),
            Row("Kotō", ja: "江東区", ko: "고토", koLacking: "Kotō", jaShown: "湖東",
                why: "GeoNames spells the ward Kotō (江東区 reads Kōtō) and lists 湖東 (ことう), which reads as that spelling"),
            Row("Himeji", ja: "姫路", ko: "히메지"),
            Row("Utsunomiya", ja: "宇都宮", ko: "우쓰노미야"),
            Row("Matsuyama", ja: "松山", ko: "마쓰야마"),
            Row("Matsudo", ja: "松戸", ko: "마쓰도"),
            Row("Ichikawa", ja: "市川", ko: "이치카와", koLacking: "Ichikawa"),
            Row("Higashiosaka", ja: "東大阪", ko: "히가시오사카"),
            Row("Nishinomiya", ja: "西宮", ko: "니시노미야", koLacking: "Nishinomiya"),
            Row("Kurashiki", ja: "倉敷", ko: "구라시키"),
            Row("Ōita", ja: "大分", ko: "오이타"),
            Row("Fukuyama", ja: "福山", ko: "후쿠야마"),
            Row("Kanazawa", ja: "金沢", ko: "가나자와"),
            Row("Amagasaki", ja: "尼崎", ko: "아마가사키", koLacking: "Amagasaki"),
            Row("Katsushika", ja: "葛飾", ko: "가쓰시카", koLacking: "Katsushika"),
            Row("Fujisawa", ja: "藤沢", ko: "후지사와"),
            Row("Kashiwa", ja: "柏", ko: "가시와"),
            Row("Machida", ja: "町田", ko: "마치다"),
            Row("Toyota", ja: "豊田", ko: "도요타"),
        ],
        "KR": [
            Row("Seoul", ja: "ソウル", ko: "서울"),
            Row("Busan", ja: "釜山", ko: "부산"),
            Row("Incheon", ja: "仁川", ko: "인천", jaLacking: "仁川広域市"),
            Row("Daegu", ja: "大邱", ko: "대구", jaLacking: "大邱広域市"),
            Row("Daejeon", ja: "大田", ko: "대전", jaLacking: "大田広域市"),
            Row("Gwangju", ja: "光州", ko: "광주"),
            Row("Suwon", ja: "水原", ko: "수원", jaLacking: "水原市"),
            Row("Ulsan", ja: "蔚山", ko: "울산"),
            Row("Goyang-si", ja: "高陽", ko: "고양시", jaLacking: "Goyang-si"),
            Row("Changwon", ja: "昌原", ko: "창원시"),
            Row("Seongnam-si", ja: "城南", ko: "성남시", jaLacking: "Seongnam-si"),
            Row("Cheongju-si", ja: "清州", ko: "청주시", jaLacking: "清州市"),
            Row("Bucheon-si", ja: "富川", ko: "부천시", jaLacking: "Bucheon-si"),
            Row("Cheonan", ja: "天安", ko: "천안", jaLacking: "天安市"),
            Row("Hwaseong-si", ja: "華城", ko: "화성시", jaLacking: "華城市"),
            Row("Jeonju", ja: "全州", ko: "전주"),
            Row("Ansan-si", ja: "安山", ko: "안산시"),
            Row("Anyang-si", ja: "安養", ko: "안양시", jaLacking: "Anyang-si"),
            Row("Kimhae", ja: "金海", ko: "김해", jaLacking: "Kimhae", koLacking: "김해시"),
            Row("Pohang", ja: "浦項", ko: "포항", jaLacking: "Pohang"),
            Row("Jeju City", ja: "済州", ko: "제주시", jaLacking: "済州市"),
            Row("Uijeongbu-si", ja: "議政府", ko: "의정부시", jaLacking: "Uijeongbu-si"),
            Row("Masan", ja: "馬山", ko: "마산", jaLacking: "Masan"),
            Row("Gumi", ja: "亀尾", ko: "구미", jaLacking: "亀尾市"),
            Row("Sejong", ja: "世宗", ko: "세종"),
            Row("Pyeongtaek", ja: "平沢", ko: "평택", jaLacking: "Pyeongtaek"),
            Row("Yangsan", ja: "梁山", ko: "양산", jaLacking: "梁山市"),
            Row("Gwangmyeong", ja: "光明", ko: "광명", jaLacking: "光明市"),
            Row("Wŏnju", ja: "原州", ko: "원주", jaLacking: "原州市", koLacking: "원주시"),
            Row("Chinju", ja: "晋州", ko: "진주", koLacking: "진주시"),
            Row("Iksan", ja: "益山", ko: "익산", jaLacking: "益山市", koLacking: "익산시"),
            Row("Gunpo", ja: "軍浦", ko: "군포", jaLacking: "Gunpo"),
            Row("Chuncheon", ja: "春川", ko: "춘천"),
            Row("Suncheon", ja: "順天", ko: "순천", jaLacking: "Suncheon"),
            Row("Yeosu", ja: "麗水", ko: "여수", jaLacking: "麗水市"),
            Row("Mokpo", ja: "木浦", ko: "목포", jaLacking: "Mokpo"),
            Row("Gyeongsan-si", ja: "慶山", ko: "경산시", jaLacking: "慶山市"),
            Row("Gunsan", ja: "群山", ko: "군산", jaLacking: "群山市", koLacking: "군산시"),
            Row("Hanam", ja: "河南", ko: "하남", jaLacking: "Hanam"),
            Row("Gyeongju", ja: "慶州", ko: "경주", koLacking: "경주시"),
            Row("Osan", ja: "烏山", ko: "오산", jaLacking: "烏山市"),
            Row("Geoje", ja: "巨済", ko: "거제", jaLacking: "Geoje"),
            Row("Chungju", ja: "忠州", ko: "충주", jaLacking: "忠州市"),
            Row("Gangneung", ja: "江陵", ko: "강릉", jaLacking: "江陵市"),
            Row("Gimpo-si", ja: "金浦", ko: "김포시", jaLacking: "Gimpo-si"),
            Row("Icheon-si", ja: "利川", ko: "이천시", jaLacking: "Icheon-si"),
            Row("Guri-si", ja: "九里", ko: "구리시", jaLacking: "Guri-si"),
            Row("Yangju", ja: "楊州", ko: "양주", jaLacking: "楊州市"),
            Row("Seogwipo", ja: "西帰浦", ko: "서귀포", jaLacking: "Seogwipo", koLacking: "Seogwipo"),
            Row("Gijang", ja: "機張", ko: "기장", jaLacking: "Gijang"),
        ],
        "CN": [
            Row("Shanghai", ja: "上海", ko: "상하이"),
            Row("Beijing", ja: "北京", ko: "베이징"),
            Row("Shenzhen", ja: "深セン", ko: "선전", jaLacking: "深セン市"),
            Row("Guangzhou", ja: "広州", ko: "광저우"),
            Row("Chengdu", ja: "成都", ko: "청두"),
            Row("Tianjin", ja: "天津", ko: "톈진"),
            Row("Wuhan", ja: "武漢", ko: "우한"),
            Row("Dongguan", ja: "東莞", ko: "둥관"),
            Row("Xi’an", ja: "西安", ko: "시안"),
            Row("Nanjing", ja: "南京", ko: "난징"),
            Row("Hangzhou", ja: "杭州", ko: "항저우"),
            Row("Foshan", ja: "仏山", ko: "포산", jaLacking: "仏山市"),
            Row("Chongqing", ja: "重慶", ko: "충칭"),
            Row("Wuzhong", ja: "呉忠", ko: "우중", jaLacking: "Wuzhong", koLacking: "Wuzhong"),
            Row("Qingdao", ja: "青島", ko: "칭다오"),
            Row("Shenyang", ja: "瀋陽", ko: "선양"),
            Row("Suzhou", ja: "蘇州", ko: "쑤저우"),
            Row("Puxi", ja: "浦西", ko: "푸시", koLacking: "Puxi"),
            Row("Pudong", ja: "浦東", ko: "푸둥", jaLacking: "浦東新区", koLacking: "Pudong"),
            Row("Harbin", ja: "ハルビン", ko: "하얼빈"),
            Row("Hefei", ja: "合肥", ko: "허페이"),
            Row("Dalian", ja: "大連", ko: "다롄", koLacking: "대련"),
            Row("Changchun", ja: "長春", ko: "창춘"),
            Row("Xiamen", ja: "厦門", ko: "샤먼", jaLacking: "廈門"),
            Row("Bao'an", ja: "宝安", ko: "바오안", jaLacking: "Bao'an", koLacking: "Bao'an"),
            Row("Wuxi", ja: "無錫", ko: "우시"),
            Row("Jinan", ja: "済南", ko: "지난"),
            Row("Taiyuan", ja: "太原", ko: "타이위안"),
            Row("Zhengzhou", ja: "鄭州", ko: "정저우"),
            Row("Shijiazhuang", ja: "石家荘", ko: "스자좡"),
            Row("Kunming", ja: "昆明", ko: "쿤밍"),
            Row("Zhongshan", ja: "中山", ko: "중산"),
            Row("Nanning", ja: "南寧", ko: "난닝"),
            Row("Shantou", ja: "汕頭", ko: "산터우"),
            Row("Fuzhou", ja: "福州", ko: "푸저우"),
            Row("Ningbo", ja: "寧波", ko: "닝보"),
            Row("Puyang", ja: "濮陽", ko: "푸양", jaLacking: "Puyang", koLacking: "Puyang"),
            Row("Shiyan", ja: "十堰", ko: "스옌"),
            Row("Tangshan", ja: "唐山", ko: "탕산"),
            Row("Lüliang", ja: "呂梁", ko: "뤼량", jaLacking: "Lüliang", koLacking: "Lüliang"),
            Row("Changzhou", ja: "常州", ko: "창저우"),
            Row("Zibo", ja: "シ博", ko: "쯔보", jaLacking: "シ博市"),
            Row("Changsha", ja: "長沙", ko: "창사"),
            Row("Guiyang", ja: "貴陽", ko: "구이양"),
            Row("Ürümqi", ja: "ウルムチ", ko: "우루무치"),
            Row("Lanzhou", ja: "蘭州", ko: "란저우"),
            Row("Huizhou", ja: "恵州", ko: "후이저우"),
            Row("Haikou", ja: "海口", ko: "하이커우"),
            Row("Linyi", ja: "臨沂", ko: "린이"),
            Row("Baoding", ja: "保定", ko: "바오딩"),
        ],
        "TW": [
            Row("Taipei", ja: "台北", ko: "타이베이", koShown: "타이뻬이",
                why: "the Korean rule prefers the romanisation closest to Taipei: 타이뻬이 (taippei) over the standard 타이베이 (Taibei)"),
            Row("New Taipei City", ja: "新北", ko: "신베이", koLacking: "신베이시"),
            Row("Taichung", ja: "台中", ko: "타이중"),
            Row("Kaohsiung", ja: "高雄", ko: "가오슝"),
            Row("Tainan", ja: "台南", ko: "타이난"),
            Row("Banqiao", ja: "板橋", ko: "반차오", koLacking: "Banqiao"),
            Row("Taoyuan", ja: "桃園", ko: "타오위안", jaLacking: "桃園市", koLacking: "타오위안시"),
            Row("Hsinchu", ja: "新竹", ko: "신주"),
            Row("Keelung", ja: "基隆", ko: "지룽"),
            Row("Fengshan", ja: "鳳山", ko: "펑산", koLacking: "펑산 구"),
            Row("Neihu", ja: "内湖", ko: "네이후", jaLacking: "内湖区", koLacking: "네이후 구"),
            Row("Chiayi City", ja: "嘉義", ko: "자이", jaLacking: "嘉義市", koLacking: "Chiayi City"),
            Row("Yongkang", ja: "永康", ko: "융캉", koLacking: "융캉 구"),
            Row("Chang-hua", ja: "彰化", ko: "장화", koLacking: "Chang-hua"),
            Row("Changhua", ja: "彰化", ko: "장화", jaLacking: "彰化市", koLacking: "Changhua"),
            Row("Zhubei", ja: "竹北", ko: "주베이"),
            Row("Bade", ja: "八徳", ko: "바더", jaLacking: "八徳区", koLacking: "바더 구"),
            Row("Xizhi", ja: "汐止", ko: "시즈", koLacking: "시즈구"),
            Row("Danshui", ja: "淡水", ko: "단수이", koLacking: "Danshui"),
            Row("Shulin", ja: "樹林", ko: "수린", koLacking: "수린 구"),
            Row("Yuanlin", ja: "員林", ko: "위안린", koLacking: "Yuanlin"),
            Row("Sanxia", ja: "三峡", ko: "싼샤", jaLacking: "三峽", koLacking: "싼샤구"),
            Row("Neili", ja: "内壢", ko: "네이리", jaLacking: "Neili", koLacking: "Neili"),
            Row("Douliu", ja: "斗六", ko: "더우류"),
            Row("Toufen", ja: "頭份", ko: "터우펀", koLacking: "Toufen", jaShown: "Toufen",
                why: "份 is outside JIS X 0208, so 頭份 is not a candidate and no other form is listed"),
            Row("Nantou", ja: "南投", ko: "난터우"),
            Row("Taitung", ja: "台東", ko: "타이둥", koLacking: "Taitung"),
            Row("Hualien City", ja: "花蓮", ko: "화롄", jaLacking: "花蓮市"),
            Row("Caotun", ja: "草屯", ko: "차오툰", koLacking: "Caotun"),
            Row("Zhudong", ja: "竹東", ko: "주둥", koLacking: "Zhudong"),
            Row("Daxi", ja: "大渓", ko: "다시", jaLacking: "大溪", koLacking: "Daxi"),
            Row("Yilan", ja: "宜蘭", ko: "이란"),
            Row("Yingge", ja: "鶯歌", ko: "잉거", koLacking: "잉거구"),
            Row("Puli", ja: "埔里", ko: "푸리", koLacking: "푸리진"),
            Row("Miaoli", ja: "苗栗", ko: "먀오리", koLacking: "Miaoli"),
            Row("Xinying", ja: "新営", ko: "신잉", jaLacking: "新営区", koLacking: "신잉 구"),
            Row("Wufeng", ja: "霧峰", ko: "우펑", koLacking: "우펑구"),
            Row("Magong", ja: "馬公", ko: "마궁"),
            Row("Xihu", ja: "渓湖", ko: "시후", jaLacking: "溪湖", koLacking: "Xihu"),
            Row("Chaozhou", ja: "潮州", ko: "차오저우", jaLacking: "潮洲", koLacking: "Chaozhou"),
            Row("Donggang", ja: "東港", ko: "둥강", koLacking: "Donggang"),
            Row("Zhushan", ja: "竹山", ko: "주산", koLacking: "Zhushan"),
            Row("Erlin", ja: "二林", ko: "얼린", koLacking: "Erlin"),
            Row("Buzi", ja: "埔子", ko: "부쯔", koLacking: "Buzi"),
            Row("Taibao", ja: "太保", ko: "타이바오"),
            Row("Jincheng", ja: "金城", ko: "진청", koLacking: "Jincheng", jaShown: "晋城",
                why: "GeoNames lists 晋城 (a city in Shanxi) before 金城 and nothing tells them apart"),
            Row("Xiluo", ja: "西螺", ko: "시뤄", koLacking: "Xiluo"),
            Row("Shetou", ja: "社頭", ko: "서터우", koLacking: "Shetou"),
            Row("Yongjing", ja: "永靖", ko: "융징", koLacking: "Yongjing"),
            Row("Tianzhong", ja: "田中", ko: "톈중", koLacking: "Tianzhong"),
        ],
    ]

    func testTheFiftyLargestCitiesOfJapanKoreaChinaAndTaiwanInEveryLanguage() throws {
        let catalog = try CityCatalog.bundled()
        var largest: [String: [City]] = [:]
        for index in 0..<catalog.cityCount {
            let city = catalog.city(CityRef(Int32(index)))
            if let table = Self.rows[city.countryCode], largest[city.countryCode, default: []].count < table.count {
                largest[city.countryCode, default: []].append(city)
            }
        }
        var checked = 0
        for (country, table) in Self.rows.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(table.count, 50)
            let cities = largest[country] ?? []
            XCTAssertEqual(cities.map(\.name), table.map(\.canonical), "\(country): the table follows the catalogue's order")
            for (city, row) in zip(cities, table) {
                let label = "\(country) \(row.canonical)"
                XCTAssertEqual(CityNameChoice.name(city, language: .en), row.canonical, label)
                XCTAssertEqual(CityNameChoice.name(city, language: .ja), row.jaShown ?? row.ja, "\(label) ja \(row.why ?? "")")
                XCTAssertEqual(CityNameChoice.name(city, language: .ko), row.koShown ?? row.ko, "\(label) ko \(row.why ?? "")")
                let names = Set([city.name] + city.alternateNames)
                if row.jaLacking { XCTAssertFalse(names.contains(row.ja), "\(label): GeoNames has \(row.ja) after all") }
                if row.koLacking { XCTAssertFalse(names.contains(row.ko), "\(label): GeoNames has \(row.ko) after all") }
                // A summary (a list row) shows the same name as the whole city (the detail header).
                let summary = catalog.summary(try XCTUnwrap(catalog.ref(forID: city.id)))
                for language in Language.allCases {
                    XCTAssertEqual(CityNameChoice.name(summary, language: language),
                                   CityNameChoice.name(city, language: language), "\(label) \(language)")
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 200)
    }

    /// Over every city of the catalogue: each language shows a name, a sample of summaries (list rows) show
    /// the detail's name, and Korean never shows GeoNames' spaced city form (선전 시 is shown 선전).
    func testEveryCityHasANameInEveryLanguageAndNoSpacedKoreanCitySuffix() throws {
        let catalog = try CityCatalog.bundled()
        var stripped = 0
        for index in 0..<catalog.cityCount {
            let ref = CityRef(Int32(index))
            let city = catalog.city(ref)
            for language in Language.allCases {
                let name = CityNameChoice.name(city, language: language)
                XCTAssertFalse(name.trimmingCharacters(in: .whitespaces).isEmpty, "\(city.name) \(language)")
                if index % 10 == 0 { XCTAssertEqual(CityNameChoice.name(catalog.summary(ref), language: language), name) }
            }
            let korean = CityNameChoice.name(city, language: .ko)
            if let listed = city.localNames.korean, listed != korean {
                XCTAssertEqual(listed, korean + " 시", city.name)
                stripped += 1
            }
            XCTAssertFalse(korean.hasSuffix(" 시") && korean.count > 3, "\(city.name): \(korean)")
        }
        XCTAssertGreaterThan(stripped, 100, "GeoNames gives many cities only as X 시")
    }
}

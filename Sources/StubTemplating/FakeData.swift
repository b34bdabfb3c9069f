/// The word lists fake values are drawn from: small, plain ASCII, English, made up (no real people or
/// companies; common given names and family names, real countries and US states).
enum FakeData {
    static let firstNames = [
        "Ada", "Alan", "Alice", "Amir", "Anna", "Ben", "Carla", "Chen", "Clara", "Daniel", "Diego", "Elena", "Emma",
        "Felix", "Grace", "Hana", "Henry", "Iris", "Ivan", "Jack", "Julia", "Kai", "Laura", "Leo", "Lina", "Lucas",
        "Maya", "Mila", "Nadia", "Noah", "Omar", "Oscar", "Paula", "Priya", "Rosa", "Ruben", "Sara", "Theo", "Uma",
        "Victor", "Wendy", "Yusuf", "Zoe"
    ]
    static let lastNames = [
        "Abbott", "Baker", "Bennett", "Brooks", "Carter", "Chandler", "Collins", "Dalton", "Ellis", "Fischer",
        "Foster", "Garcia", "Gordon", "Hayes", "Hughes", "Irwin", "Jensen", "Keller", "Khan", "Lambert", "Lopez",
        "Marsh", "Morgan", "Nakamura", "Novak", "Olsen", "Parker", "Quinn", "Reyes", "Rossi", "Sato", "Shaw",
        "Silva", "Turner", "Vargas", "Walsh", "Weber", "Young", "Zimmer"
    ]
    static let prefixes = ["Mr.", "Mrs.", "Ms.", "Miss", "Dr."]
    static let domainWords = [
        "example", "acme", "globex", "initech", "umbrella", "northwind", "contoso", "fabrikam", "tailspin",
        "wingtip", "lakeside", "bluebird", "redwood", "silverline", "brightpath"
    ]
    static let domainSuffixes = ["com", "net", "org", "io", "info", "biz"]
    static let safeEmailDomains = ["example.com", "example.org", "example.net"]
    static let streetNames = [
        "Maple", "Oak", "Pine", "Cedar", "Elm", "Willow", "Birch", "Hickory", "Lake", "Hill", "River", "Sunset",
        "Park", "Meadow", "Forest", "Spring", "Valley", "Highland", "Church", "Mill", "Washington", "Lincoln"
    ]
    static let streetSuffixes = ["Street", "Avenue", "Road", "Lane", "Drive", "Court", "Place", "Way", "Boulevard"]
    static let secondaryAddresses = ["Apt. ", "Suite "]
    static let cityPrefixes = ["North", "South", "East", "West", "New", "Port", "Lake", "Fort"]
    static let cityNames = [
        "Ashford", "Brookfield", "Clayton", "Dover", "Fairview", "Georgetown", "Greenville", "Kingston",
        "Madison", "Milford", "Newport", "Oakland", "Riverside", "Salem", "Springfield", "Franklin", "Ridgewood",
        "Winchester"
    ]
    /// US states and their postal abbreviations.
    static let states: [(name: String, abbreviation: String)] = [
        ("Alabama", "AL"), ("Arizona", "AZ"), ("California", "CA"), ("Colorado", "CO"), ("Florida", "FL"),
        ("Georgia", "GA"), ("Illinois", "IL"), ("Kansas", "KS"), ("Maine", "ME"), ("Michigan", "MI"),
        ("Minnesota", "MN"), ("Nevada", "NV"), ("New York", "NY"), ("Ohio", "OH"), ("Oregon", "OR"),
        ("Texas", "TX"), ("Utah", "UT"), ("Vermont", "VT"), ("Virginia", "VA"), ("Washington", "WA")
    ]
    /// Countries and their ISO 3166-1 alpha-2 codes.
    static let countries: [(name: String, code: String)] = [
        ("Argentina", "AR"), ("Australia", "AU"), ("Brazil", "BR"), ("Canada", "CA"), ("Chile", "CL"),
        ("Denmark", "DK"), ("Egypt", "EG"), ("Finland", "FI"), ("France", "FR"), ("Germany", "DE"),
        ("India", "IN"), ("Ireland", "IE"), ("Italy", "IT"), ("Japan", "JP"), ("Kenya", "KE"), ("Mexico", "MX"),
        ("Netherlands", "NL"), ("New Zealand", "NZ"), ("Norway", "NO"), ("Portugal", "PT"), ("Spain", "ES"),
        ("Sweden", "SE"), ("United Kingdom", "GB"), ("United States", "US")
    ]
    static let companySuffixes = ["Inc", "LLC", "Group", "and Sons", "Ltd"]
    static let industries = [
        "Accounting", "Airlines", "Banking", "Biotechnology", "Construction", "Consumer Electronics", "Education",
        "Entertainment", "Farming", "Food Production", "Health Care", "Insurance", "Logistics", "Mining",
        "Publishing", "Real Estate", "Retail", "Software", "Telecommunications", "Utilities"
    ]
    /// Lorem ipsum words, as Datafaker's `Lorem.word` draws them.
    static let loremWords = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod",
        "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim", "ad", "minim", "veniam",
        "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "ex", "ea", "commodo",
        "consequat", "duis", "aute", "irure", "in", "reprehenderit", "voluptate", "velit", "esse", "cillum",
        "fugiat", "nulla", "pariatur", "excepteur", "sint", "occaecat", "cupidatat", "non", "proident", "sunt",
        "culpa", "qui", "officia", "deserunt", "mollit", "anim", "id", "est", "laborum"
    ]
}

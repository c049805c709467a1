//! The table of Google's robots.txt cases (github.com/google/robotstxt,
//! `robots_test.cc`): each robots.txt with the agent and the verdicts that
//! Google's test expects, named after that test.

/// One robots.txt of the suite, and the verdicts Google expects for it.
pub(super) struct Case {
    /// The test of `robots_test.cc` it comes from.
    pub(super) test: &'static str,
    pub(super) robots: &'static [u8],
    pub(super) agent: &'static str,
    /// (URL, allowed).
    pub(super) checks: &'static [(&'static str, bool)],
}

const DOCUMENTATION_FISH: &[(&str, bool)] = &[
    ("http://foo.bar/bar", false),
    ("http://foo.bar/fish", true),
    ("http://foo.bar/fish.html", true),
    ("http://foo.bar/fish/salmon.html", true),
    ("http://foo.bar/fishheads", true),
    ("http://foo.bar/fishheads/yummy.html", true),
    ("http://foo.bar/fish.html?id=anything", true),
    ("http://foo.bar/Fish.asp", false),
    ("http://foo.bar/catfish", false),
    ("http://foo.bar/?id=fish", false),
];

const LINES_FOO_BAR: &[(&str, bool)] = &[("http://foo.bar/x/y", false)];

pub(super) const CASES: &[Case] = &[
    Case {
        test: "GoogleOnly_SystemTest",
        robots: b"",
        agent: "FooBot",
        checks: &[("http://foo.bar/x", true)],
    },
    Case {
        test: "ID_LineSyntax_Line",
        robots: b"user-agent: FooBot\ndisallow: /\n",
        agent: "FooBot",
        checks: LINES_FOO_BAR,
    },
    Case {
        test: "ID_LineSyntax_Line",
        robots: b"foo: FooBot\nbar: /\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/y", true)],
    },
    Case {
        test: "ID_LineSyntax_Line",
        robots: b"user-agent FooBot\ndisallow /\n",
        agent: "FooBot",
        checks: LINES_FOO_BAR,
    },
    Case {
        test: "ID_LineSyntax_Groups",
        robots: GROUPS,
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/x/b", true),
            ("http://foo.bar/z/d", true),
            ("http://foo.bar/y/c", false),
            ("http://foo.bar/foo/bar/", false),
        ],
    },
    Case {
        test: "ID_LineSyntax_Groups",
        robots: GROUPS,
        agent: "BarBot",
        checks: &[
            ("http://foo.bar/y/c", true),
            ("http://foo.bar/w/a", true),
            ("http://foo.bar/z/d", false),
            ("http://foo.bar/foo/bar/", false),
        ],
    },
    Case {
        test: "ID_LineSyntax_Groups",
        robots: GROUPS,
        agent: "BazBot",
        checks: &[("http://foo.bar/z/d", true), ("http://foo.bar/foo/bar/", false)],
    },
    Case {
        test: "ID_LineSyntax_Groups_OtherRules",
        robots: b"User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/", false)],
    },
    Case {
        test: "ID_LineSyntax_Groups_OtherRules",
        robots: b"User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
        agent: "BarBot",
        checks: &[("http://foo.bar/", false)],
    },
    Case {
        test: "ID_LineSyntax_Groups_OtherRules",
        robots: b"User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/", false)],
    },
    Case {
        test: "ID_LineSyntax_Groups_OtherRules",
        robots: b"User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
        agent: "BarBot",
        checks: &[("http://foo.bar/", false)],
    },
    Case {
        test: "ID_REPLineNamesCaseInsensitive",
        robots: b"USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
        agent: "FooBot",
        checks: X_ALLOWED_A_NOT,
    },
    Case {
        test: "ID_REPLineNamesCaseInsensitive",
        robots: b"user-agent: FooBot\nallow: /x/\ndisallow: /\n",
        agent: "FooBot",
        checks: X_ALLOWED_A_NOT,
    },
    Case {
        test: "ID_REPLineNamesCaseInsensitive",
        robots: b"uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
        agent: "FooBot",
        checks: X_ALLOWED_A_NOT,
    },
    Case {
        test: "ID_UserAgentValueCaseInsensitive",
        robots: b"User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n",
        agent: "Foo",
        checks: X_ALLOWED_A_NOT,
    },
    Case {
        test: "ID_UserAgentValueCaseInsensitive",
        robots: b"User-Agent: foo bar\nAllow: /x/\nDisallow: /\n",
        agent: "Foo",
        checks: X_ALLOWED_A_NOT,
    },
    Case {
        test: "ID_UserAgentValueCaseInsensitive",
        robots: b"User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n",
        agent: "foo",
        checks: X_ALLOWED_A_NOT,
    },
    Case {
        test: "GoogleOnly_AcceptUserAgentUpToFirstSpace",
        robots: b"User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
        agent: "Foo",
        checks: &[("http://foo.bar/x/y", true)],
    },
    Case {
        test: "ID_GlobalGroups_Secondary",
        robots: b"",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/y", true)],
    },
    Case {
        test: "ID_GlobalGroups_Secondary",
        robots: b"user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/y", false)],
    },
    Case {
        test: "ID_GlobalGroups_Secondary",
        robots: b"user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n",
        agent: "BarBot",
        checks: &[("http://foo.bar/x/y", true)],
    },
    Case {
        test: "ID_GlobalGroups_Secondary",
        robots: b"user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
        agent: "QuxBot",
        checks: &[("http://foo.bar/x/y", true)],
    },
    Case {
        test: "ID_AllowDisallow_Value_CaseSensitive",
        robots: b"user-agent: FooBot\ndisallow: /x/\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/y", false)],
    },
    Case {
        test: "ID_AllowDisallow_Value_CaseSensitive",
        robots: b"user-agent: FooBot\ndisallow: /X/\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/y", true)],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/page.html", true)],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\nallow: /page\ndisallow: /*.html\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/page.html", false),
            ("http://foo.bar/page", true),
        ],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/x/page.html", true),
            ("http://foo.bar/x/y.html", false),
        ],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/x/page", true),
            ("http://foo.bar/y/page", false),
        ],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\nallow: /\ndisallow: /\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/x/page.html", true)],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\nallow: /folder\ndisallow: /folder\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/folder/page", true)],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\nallow: /page\ndisallow: /*.ph\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/page.php5", true)],
    },
    Case {
        test: "ID_LongestMatch",
        robots: b"user-agent: FooBot\nallow: /$\ndisallow: /\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/", true),
            ("http://foo.bar/page.html", false),
        ],
    },
    Case {
        test: "ID_Encoding",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true)],
    },
    Case {
        test: "ID_Encoding",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\xE3\x83\x84\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/foo/bar/%E3%83%84", true)],
    },
    Case {
        test: "ID_Encoding",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
        agent: "FooBot",
        checks: &[("http://foo.bar/foo/bar/%E3%83%84", true)],
    },
    Case {
        test: "ID_Encoding",
        robots: b"User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/foo/bar/baz", false),
            ("http://foo.bar/foo/bar/%62%61%7A", true),
        ],
    },
    Case {
        test: "ID_SpecialCharacters",
        robots: b"User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/foo/bar/quz", false),
            ("http://foo.bar/foo/quz", true),
            ("http://foo.bar/foo//quz", true),
            ("http://foo.bar/foo/bax/quz", true),
        ],
    },
    Case {
        test: "ID_SpecialCharacters",
        robots: b"User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/foo/bar", false),
            ("http://foo.bar/foo/bar/qux", true),
            ("http://foo.bar/foo/bar/", true),
            ("http://foo.bar/foo/bar/baz", true),
        ],
    },
    Case {
        test: "ID_SpecialCharacters",
        robots: b"User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/foo/bar", true),
            ("http://foo.bar/foo/quz", false),
        ],
    },
    Case {
        test: "GoogleOnly_IndexHTMLisDirectory",
        robots: b"User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
        agent: "foobot",
        checks: &[
            ("http://foo.com/allowed-slash/", true),
            ("http://foo.com/allowed-slash/index.htm", false),
            ("http://foo.com/allowed-slash/index.html", true),
            ("http://foo.com/anyother-url", false),
        ],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish\n",
        agent: "FooBot",
        checks: DOCUMENTATION_FISH,
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish*\n",
        agent: "FooBot",
        checks: DOCUMENTATION_FISH,
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish/\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/bar", false),
            ("http://foo.bar/fish/", true),
            ("http://foo.bar/fish/salmon", true),
            ("http://foo.bar/fish/?salmon", true),
            ("http://foo.bar/fish/salmon.html", true),
            ("http://foo.bar/fish/?id=anything", true),
            ("http://foo.bar/fish", false),
            ("http://foo.bar/fish.html", false),
            ("http://foo.bar/Fish/Salmon.html", false),
        ],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /*.php\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/bar", false),
            ("http://foo.bar/filename.php", true),
            ("http://foo.bar/folder/filename.php", true),
            ("http://foo.bar/folder/filename.php?parameters", true),
            ("http://foo.bar//folder/any.php.file.html", true),
            ("http://foo.bar/filename.php/", true),
            ("http://foo.bar/index?f=filename.php/", true),
            ("http://foo.bar/php/", false),
            ("http://foo.bar/index?php", false),
            ("http://foo.bar/windows.PHP", false),
        ],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /*.php$\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/bar", false),
            ("http://foo.bar/filename.php", true),
            ("http://foo.bar/folder/filename.php", true),
            ("http://foo.bar/filename.php?parameters", false),
            ("http://foo.bar/filename.php/", false),
            ("http://foo.bar/filename.php5", false),
            ("http://foo.bar/php/", false),
            ("http://foo.bar/filename?php", false),
            ("http://foo.bar/aaaphpaaa", false),
            ("http://foo.bar//windows.PHP", false),
        ],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n",
        agent: "FooBot",
        checks: &[
            ("http://foo.bar/bar", false),
            ("http://foo.bar/fish.php", true),
            ("http://foo.bar/fishheads/catfish.php?parameters", true),
            ("http://foo.bar/Fish.PHP", false),
        ],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\nallow: /p\ndisallow: /\n",
        agent: "FooBot",
        checks: &[("http://example.com/page", true)],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\nallow: /folder\ndisallow: /folder\n",
        agent: "FooBot",
        checks: &[("http://example.com/folder/page", true)],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n",
        agent: "FooBot",
        checks: &[("http://example.com/page.htm", false)],
    },
    Case {
        test: "GoogleOnly_DocumentationChecks",
        robots: b"user-agent: FooBot\nallow: /$\ndisallow: /\n",
        agent: "FooBot",
        checks: &[
            ("http://example.com/", true),
            ("http://example.com/page.html", false),
        ],
    },
    // Line endings: DOS, Mac, none at the end, mixed. Google counts the
    // lines; the `Disallow: /` after the blank lines is read in all four.
    Case {
        test: "ID_LinesNumbersAreCountedCorrectly",
        robots: b"User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        agent: "bar",
        checks: &[("http://foo.bar/x", false)],
    },
    Case {
        test: "ID_LinesNumbersAreCountedCorrectly",
        robots: b"User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
        agent: "bar",
        checks: &[("http://foo.bar/x", false)],
    },
    Case {
        test: "ID_LinesNumbersAreCountedCorrectly",
        robots: b"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
        agent: "bar",
        checks: &[("http://foo.bar/x", false)],
    },
    Case {
        test: "ID_LinesNumbersAreCountedCorrectly",
        robots: b"User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
        agent: "bar",
        checks: &[("http://foo.bar/x", false)],
    },
    // Byte order marks: a whole or partial one at the start is skipped, so
    // `User-Agent: foo` is read and `/elsewhere` is foo's to fetch; a broken
    // one makes that first line garbage, and foo falls under `*`.
    Case {
        test: "ID_UTF8ByteOrderMarkIsSkipped",
        robots: b"\xEF\xBB\xBFUser-Agent: foo\nDisallow: /AnyValue\n\nUser-Agent: *\nDisallow: /\n",
        agent: "foo",
        checks: BOM_READ,
    },
    Case {
        test: "ID_UTF8ByteOrderMarkIsSkipped",
        robots: b"\xEF\xBBUser-Agent: foo\nDisallow: /AnyValue\n\nUser-Agent: *\nDisallow: /\n",
        agent: "foo",
        checks: BOM_READ,
    },
    Case {
        test: "ID_UTF8ByteOrderMarkIsSkipped",
        robots: b"\xEFUser-Agent: foo\nDisallow: /AnyValue\n\nUser-Agent: *\nDisallow: /\n",
        agent: "foo",
        checks: BOM_READ,
    },
    Case {
        test: "ID_UTF8ByteOrderMarkIsSkipped",
        robots: b"\xEF\x11\xBFUser-Agent: foo\nDisallow: /AnyValue\n\nUser-Agent: *\nDisallow: /\n",
        agent: "foo",
        checks: &[
            ("http://foo.bar/AnyValue", false),
            ("http://foo.bar/elsewhere", false),
        ],
    },
    // A byte order mark is one only at the start: mid-file, its line is
    // garbage, so foo's `Allow:` is not read.
    Case {
        test: "ID_UTF8ByteOrderMarkIsSkipped",
        robots: b"User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\nDisallow: /\n",
        agent: "foo",
        checks: &[("http://foo.bar/AnyValue", false)],
    },
    // Google extracts the path, parameters and query of a URL, without its
    // fragment; these are the verdicts that follow from it.
    Case {
        test: "TestGetPathParamsQuery",
        robots: b"User-agent: *\nDisallow: /$\nDisallow: /a/b?c=d&e=f$\nDisallow: /a;b$\n",
        agent: "FooBot",
        checks: &[
            ("http://www.example.com", false),
            ("http://www.example.com/a/b?c=d&e=f#fg", false),
            ("http://www.example.com/a;b#c", false),
            ("http://www.example.com/a/b?c=http://d.e/", true),
        ],
    },
    // Patterns are percent-encoded, with upper-case hex digits.
    Case {
        test: "TestMaybeEscapePattern",
        robots: b"User-agent: *\nDisallow: /\xC3\xA1\nDisallow: /%aa\n",
        agent: "FooBot",
        checks: &[
            ("http://www.example.com/%C3%A1", false),
            ("http://www.example.com/%AA", false),
            ("http://www.example.com/a", true),
        ],
    },
];

const X_ALLOWED_A_NOT: &[(&str, bool)] =
    &[("http://foo.bar/x/y", true), ("http://foo.bar/a/b", false)];

const BOM_READ: &[(&str, bool)] = &[
    ("http://foo.bar/AnyValue", false),
    ("http://foo.bar/elsewhere", true),
];

const GROUPS: &[u8] = b"allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\n\
user-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\n\
user-agent: FooBot\nallow: /z/\ndisallow: /\n";

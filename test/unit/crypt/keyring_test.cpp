// The keyring file's format: named keys found, missing names answered with nothing, comments and blank lines
// skipped, malformed entries refused by line without the message quoting them.
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/crypt/keyring.hpp"

namespace idcodec::crypt {
namespace {

std::vector<std::uint8_t> bytes(const std::optional<SecretBytes>& key) {
    return key ? std::vector<std::uint8_t>(key->bytes().begin(), key->bytes().end()) : std::vector<std::uint8_t>{};
}

TEST(Keyring, FindsKeysByName) {
    const std::string keyring =
        "# idcodec keys\n"
        " customers = 2b7e151628aed2a6abf7158809cf4f3c   # since 2026\n"
        "\n"
        "\tinvoices=000102030405060708090A0B0C0D0E0F1011121314151617, k_3=" +
        std::string(64, 'f') + "\r\n";
    EXPECT_NO_THROW(check_keyring(keyring));
    EXPECT_EQ(bytes(key_of(keyring, "customers")),
              (std::vector<std::uint8_t>{0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09,
                                         0xcf, 0x4f, 0x3c}));
    EXPECT_EQ(key_of(keyring, "invoices")->bytes().size(), 24u);
    EXPECT_EQ(key_of(keyring, "invoices")->bytes()[10], 10);
    EXPECT_EQ(key_of(keyring, "k_3")->bytes().size(), 32u);
    EXPECT_FALSE(key_of(keyring, "Customers").has_value());  // names are case-sensitive
    EXPECT_FALSE(key_of(keyring, "").has_value());
    EXPECT_FALSE(key_of(keyring, "idcodec").has_value());  // a word of a comment is no name
    EXPECT_FALSE(key_of("", "customers").has_value());
    EXPECT_NO_THROW(check_keyring(""));
    EXPECT_NO_THROW(check_keyring("# nothing yet\n"));
    EXPECT_TRUE(is_key_name("customers_2"));
    EXPECT_FALSE(is_key_name("\\x2b7e"));
    EXPECT_FALSE(is_key_name(std::string(64, 'a')));
}

TEST(Keyring, RefusesMalformedEntriesByLineWithoutQuotingThem) {
    const std::string key(32, 'a');
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"a=" + key + "\nb", "line 2 has no '='"},
        {"# first\n=" + key, "line 2 has no name"},
        {"a-b=" + key, "line 1 has no name"},
        {"a=" + key.substr(1), "line 1 has no key of 32, 48 or 64"},
        {"\n\na=" + key.substr(2) + "zz", "line 3 has a key with a character that is no hexadecimal digit"},
        {"a=" + key + "\na = " + key, "line 2 repeats the name"},
        {"a = # " + key, "line 1 has no key"},
    };
    for (const auto& [keyring, expected] : cases) {
        try {
            check_keyring(keyring);
            ADD_FAILURE() << keyring << " was accepted";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
            EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
            EXPECT_EQ(std::string(error.what()).find("aaaa"), std::string::npos) << error.what();
        }
    }
}

}  // namespace
}  // namespace idcodec::crypt

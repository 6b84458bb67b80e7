// The keyring's format: named keys found, missing names answered with nothing, malformed entries refused by
// position without the message quoting them.
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
        " customers=2b7e151628aed2a6abf7158809cf4f3c,\n\tinvoices=000102030405060708090A0B0C0D0E0F1011121314151617 "
        "k_3=" +
        std::string(64, 'f');
    EXPECT_EQ(bytes(key_of(keyring, "customers")),
              (std::vector<std::uint8_t>{0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09,
                                         0xcf, 0x4f, 0x3c}));
    EXPECT_EQ(key_of(keyring, "invoices")->bytes().size(), 24u);
    EXPECT_EQ(key_of(keyring, "invoices")->bytes()[10], 10);
    EXPECT_EQ(key_of(keyring, "k_3")->bytes().size(), 32u);
    EXPECT_FALSE(key_of(keyring, "Customers").has_value());  // names are case-sensitive
    EXPECT_FALSE(key_of(keyring, "").has_value());
    EXPECT_FALSE(key_of("", "customers").has_value());
    EXPECT_TRUE(is_key_name("customers_2"));
    EXPECT_FALSE(is_key_name("\\x2b7e"));
    EXPECT_FALSE(is_key_name(std::string(64, 'a')));
}

TEST(Keyring, RefusesMalformedEntriesWithoutQuotingThem) {
    const std::string key(32, 'a');
    for (const std::string& keyring : {"a=" + key + ",b", "=" + key, "a-b=" + key, "a=" + key.substr(1),
                                       "a=" + key.substr(2) + "zz", "a=" + key + " a=" + key}) {
        try {
            (void)key_of(keyring, "a");
            ADD_FAILURE() << keyring << " was accepted";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
            EXPECT_EQ(std::string(error.what()).find("aaaa"), std::string::npos) << error.what();
        }
    }
}

}  // namespace
}  // namespace idcodec::crypt

// cacheviz --script's lines (apps/cacheviz/input_script.hpp): each action takes exactly its words;
// a word left over is an error naming FILE:LINE and the extra text, as the parser's other errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/cacheviz/input_script.hpp"
#include "traces/input_error.hpp"

namespace cachesim::gui {
namespace {

// The message parse_input_script throws for `text`, or "" when it accepts it.
std::string error_of(const std::string& text) {
    try {
        parse_input_script(text, "s.txt");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(CachevizInputScript, EveryActionWithItsOwnWordsIsAccepted) {
    const std::vector<ScriptedEvent> events = parse_input_script(
        "0 idle\n1 key ctrl+S\n2 down Left   # a comment\n2 up Left\n3 move 10 20\n4 click 10 20\n"
        "5 click 10 20 right\n6 press 1 2 left\n6 release 1 2\n7 wheel 5 6 -1.5\n8 snapshot out/shot\n\n   \n",
        "s.txt");
    // By hand: idle 1; key 2 (press, release); down 1; up 1; move 1; click 3 (move, press,
    // release) twice; press 2 (move, press); release 2; wheel 2 (move, scroll); snapshot 1.
    ASSERT_EQ(events.size(), 1u + 2 + 1 + 1 + 1 + 3 + 3 + 2 + 2 + 2 + 1);
    EXPECT_EQ(events[0].kind, ScriptedEvent::Kind::idle);
    EXPECT_TRUE(events[1].event.key.control);
    EXPECT_EQ(events[1].event.key.code, sf::Keyboard::S);
    EXPECT_EQ(events[10].event.mouseButton.button, sf::Mouse::Right);  // line 5's press
    EXPECT_EQ(events[17].event.mouseWheelScroll.delta, -1.5f);
    EXPECT_EQ(events.back().kind, ScriptedEvent::Kind::snapshot);
    EXPECT_EQ(events.back().path, "out/shot");
    EXPECT_EQ(events.back().frame, 8);
}

TEST(CachevizInputScript, WordsAfterAnActionAreAnErrorNamingTheLineAndTheWords) {
    EXPECT_EQ(error_of("1 key Right extra words\n"),
              "s.txt:1: unexpected 'extra words' after 'key Right' in '1 key Right extra words'");
    EXPECT_EQ(error_of("0 idle\n2 idle now\n"), "s.txt:2: unexpected 'now' after 'idle' in '2 idle now'");
    EXPECT_EQ(error_of("0 idle\n\n3 click 10 20 right trailing\n"),
              "s.txt:3: unexpected 'trailing' after 'click 10 20 right' in '3 click 10 20 right trailing'");
    EXPECT_EQ(error_of("1 move 1 2 3\n"), "s.txt:1: unexpected '3' after 'move 1 2' in '1 move 1 2 3'");
    EXPECT_EQ(error_of("1 wheel 1 2 3 4\n"), "s.txt:1: unexpected '4' after 'wheel 1 2 3' in '1 wheel 1 2 3 4'");
    EXPECT_EQ(error_of("1 snapshot a b\n"), "s.txt:1: unexpected 'b' after 'snapshot a' in '1 snapshot a b'");
    EXPECT_EQ(error_of("1 up A B\n"), "s.txt:1: unexpected 'B' after 'up A' in '1 up A B'");
}

TEST(CachevizInputScript, ANumberRunIntoAWordIsNoNumber) {
    // "20right" is neither Y nor a button: the line is refused rather than read as a right click.
    EXPECT_EQ(error_of("1 click 10 20right\n"), "s.txt:1: expected X Y in '1 click 10 20right'");
    EXPECT_EQ(error_of("1 wheel 1 2 3x\n"), "s.txt:1: expected DELTA in '1 wheel 1 2 3x'");
    EXPECT_EQ(error_of("1x key A\n"), "s.txt:1: expected FRAME ACTION ..., got '1x key A'");
}

TEST(CachevizInputScript, OtherMistakesKeepTheirMessages) {
    EXPECT_EQ(error_of("-1 idle\n"), "s.txt:1: a negative frame in '-1 idle'");
    EXPECT_EQ(error_of("1\n"), "s.txt:1: no action in '1'");
    EXPECT_EQ(error_of("1 jump\n"), "s.txt:1: unknown action 'jump' in '1 jump'");
    EXPECT_EQ(error_of("1 key Meta\n"), "s.txt:1: unknown key 'Meta' in '1 key Meta'");
    EXPECT_EQ(error_of("1 click 1 2 middle\n"), "s.txt:1: unknown button 'middle' in '1 click 1 2 middle'");
    EXPECT_EQ(error_of("1 snapshot\n"), "s.txt:1: no PATH in '1 snapshot'");
}

}  // namespace
}  // namespace cachesim::gui

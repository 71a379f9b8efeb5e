import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeReactionEmoji, emojiNameFromDescription, isSingleEmoji } from './feedback-emoji.js';

test('names follow the Python emoji package (English)', () => {
  assert.equal(emojiNameFromDescription('thumbs up'), ':thumbs_up:');
  assert.equal(emojiNameFromDescription('thumbs up: medium skin tone'), ':thumbs_up_medium_skin_tone:');
  assert.equal(emojiNameFromDescription('flag: United States'), ':United_States:');
  assert.equal(emojiNameFromDescription('Japanese “here” button'), ':Japanese_here_button:');
  assert.equal(emojiNameFromDescription('family: man, woman, girl'), ':family_man_woman_girl:');
});

test('one emoji of any qualification is a single emoji; text, pairs and blanks are not', () => {
  for (const ok of ['👍', '👍🏽', '❤️', '❤', '🇺🇸', '#️⃣', '👨‍👩‍👧', '🧑🏻‍🤝‍🧑🏿', '©'])
    assert.equal(isSingleEmoji(ok), true, ok);
  for (const bad of ['', 'a', ':)', '👍👍', '👍 ', ' 👍', '1', 'thumbs_up'])
    assert.equal(isSingleEmoji(bad), false, bad);
});

test('reaction extras: alias, detoned, detoned_alias', () => {
  assert.deepEqual(analyzeReactionEmoji('👍'), { alias: ':thumbs_up:', detoned: '👍', detoned_alias: ':thumbs_up:' });
  assert.deepEqual(analyzeReactionEmoji('👍🏿'), {
    alias: ':thumbs_up_dark_skin_tone:',
    detoned: '👍',
    detoned_alias: ':thumbs_up:',
  });
  assert.deepEqual(analyzeReactionEmoji('🧑🏻‍🤝‍🧑🏿'), {
    alias: ':people_holding_hands_light_skin_tone_dark_skin_tone:',
    detoned: '🧑‍🤝‍🧑',
    detoned_alias: ':people_holding_hands:',
  });
  // Detoning re-emojizes the name, so the result is fully qualified (as in Weave).
  assert.equal(analyzeReactionEmoji('🏌🏻‍♂️')!.detoned, '🏌️‍♂️');
  assert.equal(analyzeReactionEmoji('❤')!.detoned, '❤️');
  assert.equal(analyzeReactionEmoji('👍👎'), null);
});

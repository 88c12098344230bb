import { requestWords, scopeWords } from './words.js';
import { definitions, element, type Html, list, readableTime } from './html.js';
import type { LetterInput } from './letter.types.js';

/** "What you asked for": the request type in words, when it was received and answered, its scope. */
export function requestPart(input: LetterInput): Html {
  const { request } = input;
  const asked = requestWords(request.type, input.regulations);
  return element('section', [
    element('h2', 'What you asked for'),
    element('p', `You asked for ${asked}. This letter is our answer.`),
    definitions([
      ['Request', request.id],
      ['Received', readableTime(request.received_at)],
      ['Answered', request.completed_at ? readableTime(request.completed_at) : undefined],
      ['You as we know you', `${request.subject.id} at ${request.subject.provider}`],
      ['Covering', list(request.scope.map(scopeWords))],
    ]),
    ...(input.note ? [element('p', input.note, 'note')] : []),
  ]);
}

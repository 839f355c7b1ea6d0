package search

// isStopword reports whether a lowercase, unstemmed word carries no topic:
// general English function words, and conversational filler that people type
// to an assistant ("hey", "quick", "please", "thanks", "gonna", "lol").
// A switch compiles to a binary search with no package-init cost.
func isStopword(w string) bool {
	switch w {
	// Function words.
	case "a", "about", "above", "after", "again", "against", "all", "almost", "along", "already", "also",
		"although", "always", "am", "among", "an", "and", "another", "any", "anyone", "anything", "anyway",
		"anywhere", "are", "aren't", "arent", "around", "as", "at", "be", "became", "because", "become",
		"been", "before", "being", "below", "between", "both", "but", "by", "can", "can't", "cannot",
		"cant", "could", "couldn't", "couldnt", "did", "didn't", "didnt", "do", "does", "doesn't",
		"doesnt", "doing", "don't", "dont", "done", "down", "during", "each", "either", "else", "enough",
		"etc", "even", "ever", "every", "everyone", "everything", "few", "for", "from", "further", "had",
		"hadn't", "has", "hasn't", "have", "haven't", "havent", "having", "he", "he's", "her", "here",
		"here's", "hers", "herself", "him", "himself", "his", "how", "how's", "however", "i", "i'd",
		"i'll", "i'm", "i've", "ie", "eg", "if", "im", "in", "into", "is", "isn't", "isnt", "it",
		"it's", "its", "itself", "ive", "let's", "lets", "many", "may", "maybe", "me", "might", "mine",
		"more", "most", "much", "must", "mustn't", "my", "myself", "neither", "no", "never", "nor", "not", "now",
		"of", "off", "often", "on", "once", "one", "ones", "only", "onto", "or", "other", "others",
		"otherwise", "ought", "our", "ours", "ourselves", "out", "over", "own", "per", "perhaps",
		"quite", "rather", "same", "shall", "shan't", "she", "she's", "should", "shouldn't", "shouldnt",
		"since", "so", "some", "someone", "something", "somewhere", "such", "than", "that", "that's",
		"thats", "the", "their", "theirs", "them", "themselves", "then", "there", "there's", "theres",
		"these", "they", "they'd", "they'll", "they're", "they've", "theyre", "this", "those", "though",
		"through", "thru", "to", "too", "toward", "towards", "under", "until", "unless", "up", "upon",
		"us", "very", "via", "was", "wasn't", "wasnt", "we", "we'd", "we'll", "we're", "we've", "were",
		"weren't", "what", "what's", "whats", "whatever", "when", "whenever", "where", "where's",
		"whereas", "wherever", "whether", "which", "while", "who", "who's", "whoever", "whom", "whose",
		"why", "will", "with", "within", "without", "won't", "wont", "would", "wouldn't", "wouldnt",
		"yet", "you", "you'd", "you'll", "you're", "you've", "youre", "your", "yours", "yourself",
		"yourselves", "whos", "wheres", "hows", "whys", "ill", "youd", "youll", "weve", "theyve":
		return true
	// Conversational filler, politeness, reactions and vague verbs of asking.
	case "hey", "hi", "hello", "yo", "ok", "okay", "k", "kk", "yes", "yeah", "yep", "yup", "ya", "nope",
		"nah", "sure", "please", "pls", "plz", "thanks", "thank", "thx", "ty", "cheers", "sorry", "lol",
		"lmao", "haha", "heh", "hmm", "hm", "huh", "uh", "um", "umm", "oh", "ah", "aha", "oops", "whoops",
		"phew", "wow", "ugh", "meh", "btw", "fyi", "imo", "tbh", "afaik", "iirc", "idk", "pretty", "really",
		"actually", "basically", "literally", "just", "simply", "quick", "quickly", "real", "kinda",
		"sorta", "gonna", "wanna", "gotta", "lemme", "gimme", "dunno", "like", "stuff", "thing",
		"things", "bit", "lot", "lots", "great", "good", "nice", "cool", "awesome", "perfect", "fine",
		"right", "sounds", "sound", "looks", "look", "seems", "seem", "think", "thought", "guess",
		"know", "knew", "want", "wanted", "need", "needs", "needed", "let", "go", "goes", "going", "get",
		"gets", "got", "getting", "make", "makes", "made", "take", "took", "give", "tell", "say",
		"said", "ask", "asked", "help", "try", "tried", "trying", "see", "saw", "use", "using", "used",
		"put", "keep", "come", "came", "work", "works", "worked", "way", "ways", "kind", "sort",
		"bunch", "little", "big", "new", "old", "last", "next", "first", "still", "well", "anyways",
		"ahead", "alright", "alrighty", "course", "definitely", "probably",
		"totally", "exactly", "certainly", "absolutely", "sometimes", "somehow", "someday", "today",
		"tomorrow", "yesterday", "soon", "later", "lately", "dumb", "question", "questions", "wondering",
		"curious", "mind", "ready", "feel", "feels", "able", "happen", "happened", "happening",
		"explain", "show", "lgtm", "continue", "proceed", "instead", "hopefully",
		"anybody", "somebody", "nobody", "everybody", "whole", "entire", "less", "least",
		"cuz", "cause", "bc", "b/c", "w/", "w/o", "u", "ur", "r", "idea", "ideas",
		"mean", "means", "wait", "hold", "sec", "moment", "okey", "hope", "appreciate", "appreciated",
		"chance", "wonder", "wondered", "sense", "claude":
		return true
	}
	return false
}

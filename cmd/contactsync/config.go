package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"
)

// Every setting of contactsync is a flag first. bindSettings turns a command's flags into settings that
// can also come from an environment variable or a YAML config file, so a new flag needs nothing but
// its registration: its environment variable, config key, help text and validation of values from
// every source follow from the flag itself.

const (
	// envPrefix starts every setting's environment variable: CONTACTSYNC_ + the flag name in upper
	// case with '-' as '_'.
	envPrefix = "CONTACTSYNC_"
	// configFlag names the flag (and, through envName, the environment variable) giving the file.
	configFlag = "config"
	// settingsAnnotation marks a command whose flags are settings; its value lists their names,
	// comma-separated, so a config file key is known when any command of the tree uses it.
	settingsAnnotation = "contactsync.settings"
)

// envName returns the environment variable of the setting a flag name denotes.
func envName(flag string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// configHelp ends the long help of every command with settings; it says where values come from.
const configHelp = `

Settings: every flag marked [env …] below can also be given by that environment variable (an empty
variable counts as unset), or by a key of the flag's name in a YAML config file named by --config FILE
or ` + envPrefix + `CONFIG. Precedence: flag > environment > config file > default. One config file may
hold the settings of every command (serve, migrate, …); a key no command knows is an error.`

// bindSettings makes flags of cmd settings: names lists them, or, when names is empty, every flag cmd
// has. Call it after registering the flags. It appends "[env CONTACTSYNC_…]" to each setting's usage,
// adds --config, explains both in the long help, and, before cmd runs, fills every setting not given
// on the command line from the environment or the config file through the flag's own Set, so a bad
// value fails at start naming its source and the flag.
func bindSettings(cmd *cobra.Command, names ...string) *cobra.Command {
	flags := cmd.Flags()
	if len(names) == 0 {
		flags.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	}
	for _, name := range names {
		f := flags.Lookup(name)
		if f == nil {
			panic("bindSettings: " + cmd.Name() + " has no flag --" + name) // a programming error
		}
		f.Usage += " [env " + envName(name) + "]"
	}
	flags.String(configFlag, "", "YAML file of settings, keyed by flag name [env "+envName(configFlag)+"]")
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[settingsAnnotation] = strings.Join(names, ",")
	cmd.Long += configHelp

	next := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if err := applySettings(cmd, names); err != nil {
			return err
		}
		if next != nil {
			return next(cmd, args)
		}
		return nil
	}
	return cmd
}

// applySettings sets each named flag not given on the command line from its environment variable,
// else from the config file.
func applySettings(cmd *cobra.Command, names []string) error {
	return fillSettings(cmd.Flags(), names, configPath(cmd.Flags()), knownSettings(cmd))
}

// configPath returns the config file's path: --config, else CONTACTSYNC_CONFIG, else none.
func configPath(flags *pflag.FlagSet) string {
	path, _ := flags.GetString(configFlag)
	if !flags.Changed(configFlag) {
		path = os.Getenv(envName(configFlag))
	}
	return path
}

// fillSettings sets each named flag of flags not given on the command line from its environment
// variable, else from the config file at path (none when empty), whose keys must be in known.
func fillSettings(flags *pflag.FlagSet, names []string, path string, known map[string]bool) error {
	var file map[string]configValue
	if path != "" {
		var err error
		if file, err = readConfigFile(path, known); err != nil {
			return err
		}
	}
	for _, name := range names {
		f := flags.Lookup(name)
		if f.Changed {
			continue
		}
		if v := os.Getenv(envName(name)); v != "" {
			if err := f.Value.Set(v); err != nil {
				return fmt.Errorf("%s=%q: invalid value for --%s: %w", envName(name), v, name, err)
			}
			continue
		}
		if v, ok := file[name]; ok {
			if err := v.setTo(f); err != nil {
				return fmt.Errorf("config file %s: key %s (line %d): %w", path, name, v.line, err)
			}
		}
	}
	return nil
}

// settingNames returns the names of cmd's settings, as bindSettings recorded them.
func settingNames(cmd *cobra.Command) []string {
	return strings.Split(cmd.Annotations[settingsAnnotation], ",")
}

// settingValues returns the value of each named flag as text, by name: a list as its items joined
// by commas.
func settingValues(flags *pflag.FlagSet, names []string) map[string]string {
	values := make(map[string]string, len(names))
	for _, name := range names {
		f := flags.Lookup(name)
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values[name] = strings.Join(sv.GetSlice(), ",")
			continue
		}
		values[name] = f.Value.String()
	}
	return values
}

// rereadSettings reads the settings of cmd, which has run, afresh onto fresh, a command with the same
// flags that has not: the values given on cmd's command line, then the environment and the config
// file as they are now, as at start. A reload of serve uses it.
func rereadSettings(cmd, fresh *cobra.Command) error {
	var copyErr error
	cmd.Flags().Visit(func(given *pflag.Flag) { // the flags given on the command line only
		to := fresh.Flags().Lookup(given.Name)
		if to == nil || given.Name == configFlag || copyErr != nil {
			return
		}
		if sv, ok := given.Value.(pflag.SliceValue); ok {
			copyErr = to.Value.(pflag.SliceValue).Replace(sv.GetSlice())
		} else {
			copyErr = to.Value.Set(given.Value.String())
		}
		to.Changed = true
	})
	if copyErr != nil {
		return copyErr
	}
	return fillSettings(fresh.Flags(), settingNames(cmd), configPath(cmd.Flags()), knownSettings(cmd))
}

// knownSettings returns the settings of every command in cmd's tree, the keys a config file may hold.
func knownSettings(cmd *cobra.Command) map[string]bool {
	known := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if list, ok := c.Annotations[settingsAnnotation]; ok {
			for _, name := range strings.Split(list, ",") {
				known[name] = true
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd.Root())
	return known
}

// configValue is one key's value in a config file: a scalar, or a sequence for list flags.
type configValue struct {
	scalar string
	list   []string
	isList bool
	line   int
}

// setTo feeds the value to a flag through its own parser.
func (v configValue) setTo(f *pflag.Flag) error {
	if !v.isList {
		if err := f.Value.Set(v.scalar); err != nil {
			return fmt.Errorf("invalid value %q for --%s: %w", v.scalar, f.Name, err)
		}
		return nil
	}
	sv, ok := f.Value.(pflag.SliceValue)
	if !ok {
		return fmt.Errorf("--%s takes one value, not a list", f.Name)
	}
	if err := sv.Replace(v.list); err != nil {
		return fmt.Errorf("invalid value %q for --%s: %w", v.list, f.Name, err)
	}
	return nil
}

// readConfigFile reads a YAML mapping of setting names to values. Values keep their YAML text (30s,
// 1048576, true), so each flag parses them as it parses its command-line argument.
func readConfigFile(path string, known map[string]bool) (map[string]configValue, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	// Decoded document by document: yaml.Unmarshal reads the first and silently ignores the rest, so a
	// setting after a "---" would be lost without a word.
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, fmt.Errorf("config file %s: holds more than one YAML document (line %d); put every setting in one mapping", path, next.Line)
	case !errors.Is(err, io.EOF):
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	values := map[string]configValue{}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return values, nil // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config file %s: expected a mapping of setting names to values (line %d)", path, root.Line)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, node := root.Content[i], root.Content[i+1]
		name := key.Value
		switch {
		case key.Kind != yaml.ScalarNode:
			return nil, fmt.Errorf("config file %s: line %d: a key must be a setting name", path, key.Line)
		case name == configFlag:
			return nil, fmt.Errorf("config file %s: key %s (line %d): a config file cannot name another", path, name, key.Line)
		case !known[name]:
			if near := nearestKeys(name, known); len(near) > 0 {
				return nil, fmt.Errorf("config file %s: unknown key %q (line %d); did you mean %s?", path, name, key.Line, strings.Join(near, " or "))
			}
			return nil, fmt.Errorf("config file %s: unknown key %q (line %d); known keys: %s", path, name, key.Line, strings.Join(sortedKeys(known), ", "))
		}
		if _, dup := values[name]; dup {
			return nil, fmt.Errorf("config file %s: key %s (line %d) given twice", path, name, key.Line)
		}
		v, err := configValueOf(node)
		if err != nil {
			return nil, fmt.Errorf("config file %s: key %s (line %d): %w", path, name, node.Line, err)
		}
		values[name] = v
	}
	return values, nil
}

// configValueOf converts one YAML value, refusing mappings and nested lists no flag could take.
func configValueOf(node *yaml.Node) (configValue, error) {
	if node.Kind == yaml.AliasNode {
		node = node.Alias
	}
	switch node.Kind {
	case yaml.ScalarNode:
		if node.Tag == "!!null" {
			return configValue{line: node.Line}, nil // "key:" with no value: the empty string
		}
		return configValue{scalar: node.Value, line: node.Line}, nil
	case yaml.SequenceNode:
		v := configValue{isList: true, list: []string{}, line: node.Line}
		for _, item := range node.Content {
			if item.Kind != yaml.ScalarNode {
				return configValue{}, errors.New("a list may hold only plain values")
			}
			v.list = append(v.list, item.Value)
		}
		return v, nil
	default:
		return configValue{}, errors.New("expected a value or a list of values, not a mapping")
	}
}

func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}

// nearestKeys returns the known keys a mistyped key most likely meant, sorted: the key spelled as
// an environment variable's tail (store_wait, STORE_WAIT) or in another case, else those fewest
// edits away (Levenshtein), at most 2 and fewer than half the key's length, so a short or unrelated
// word suggests nothing and the caller lists every key instead.
func nearestKeys(name string, known map[string]bool) []string {
	normal := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	if known[normal] {
		return []string{normal}
	}
	best, limit := []string(nil), min(2, (len(normal)-1)/2)
	for _, k := range sortedKeys(known) {
		switch d := editDistance(normal, k); {
		case d > limit:
		case d < limit:
			best, limit = []string{k}, d
		default:
			best = append(best, k)
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes (keys are ASCII): the fewest
// insertions, deletions and substitutions that turn one into the other.
func editDistance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

module github.com/reachy-broker/reachy-broker

go 1.26.8

require (
	github.com/go-audio/audio v1.0.0
	github.com/go-audio/wav v1.1.0
	github.com/sashabaranov/go-openai v1.43.0
)

require (
	github.com/go-audio/riff v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
